import {
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { packagesDir } from "@skillshelf/store";
import { withScopeLock } from "@skillshelf/store/writers";
import { testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { RETRY_WHILE_LOCKED, runStoreChild } from "./_child.js";
import { errorOf, storeEnvironment } from "./_store.js";

function plantLock(dir: string, owner: Record<string, unknown> | undefined, ageMs = 0) {
  const lockDir = join(dir, ".lock");
  mkdirSync(lockDir, { recursive: true });
  if (owner !== undefined) writeFileSync(join(lockDir, "owner.json"), JSON.stringify(owner));
  const when = new Date(Date.now() - ageMs);
  utimesSync(lockDir, when, when);
}

describe("withScopeLock", () => {
  it("runs the function holding the lock and releases it", () => {
    const environment = storeEnvironment();
    const first = withScopeLock({ environment, scope: "user" }, (lock) => lock.diagnostics);
    expect(first).toEqual([]);
    expect(withScopeLock({ environment, scope: "user" }, () => "again")).toBe("again");
  });

  it("refuses to nest in one process", () => {
    const environment = storeEnvironment();
    const nested = withScopeLock({ environment, scope: "user" }, () =>
      errorOf(() => withScopeLock({ environment, scope: "user" }, () => 1)),
    );
    expect(nested).toMatchObject({ code: "locked", details: { pid: process.pid } });
    expect(withScopeLock({ environment, scope: "project" }, () => "other scopes are free")).toBe(
      "other scopes are free",
    );
  });

  it("yields locked at once while another process holds the lock", async () => {
    const environment = storeEnvironment();
    const signals = testdir();
    const [held, done] = [join(signals, "held"), join(signals, "done")];
    // the child holds the lock until the test says it is done, so no timing is assumed
    const holder = runStoreChild(
      `store.withScopeLock({ environment: args.environment, scope: "user" }, () => {
        writeFileSync(args.held, "");
        for (let waited = 0; !existsSync(args.done) && waited < 30000; waited += 10) sleep(10);
      });`,
      { environment, held, done },
    );
    while (!existsSync(held)) await new Promise((resolve) => setTimeout(resolve, 10));
    const refused = errorOf(() => withScopeLock({ environment, scope: "user" }, () => undefined));
    writeFileSync(done, "");
    expect(refused).toMatchObject({ code: "locked" });
    expect((refused?.details as { pid?: number } | undefined)?.pid).not.toBe(process.pid);
    expect(await holder).toMatchObject({ code: 0, stderr: "" });
    const dir = packagesDir(environment, "user");
    expect(withScopeLock({ environment, scope: "user" }, () => dir)).toBe(dir);
  });

  it("recovers the lock of a holder killed while holding it, and reports it", async () => {
    const environment = storeEnvironment();
    const killed = await runStoreChild(
      `store.withScopeLock({ environment: args.environment, scope: "user" }, () => process.kill(process.pid, "SIGKILL"));`,
      { environment },
    );
    expect(killed.signal).toBe("SIGKILL");
    const diagnostics = withScopeLock({ environment, scope: "user" }, (lock) => lock.diagnostics);
    expect(diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["lock_recovered", join(packagesDir(environment, "user"), ".lock")],
    ]);
    expect(diagnostics[0]?.details).toMatchObject({
      reason: expect.stringContaining("no longer running"),
    });
  });

  it("never takes a lock from another host, however old, and says which host holds it", () => {
    const environment = storeEnvironment();
    const dir = packagesDir(environment, "user");
    plantLock(dir, { pid: 1, hostname: "elsewhere.example", token: "t", since: "then" }, 3_600_000);
    const refused = errorOf(() => withScopeLock({ environment, scope: "user" }, () => 1));
    expect(refused).toMatchObject({ code: "locked", details: { hostname: "elsewhere.example" } });
    // the catalogue's hint names the host and the lock to remove if it runs nothing
    expect(refused?.hint).toContain(`if elsewhere.example runs none, remove ${join(dir, ".lock")}`);
  });

  it("recovers the lock of a pid that is now another program, and one naming no holder", () => {
    const environment = storeEnvironment();
    const dir = packagesDir(environment, "user");
    // this very process, started at another time: the pid was reused
    plantLock(dir, {
      pid: process.pid,
      hostname: hostname(),
      token: "t",
      since: "then",
      start: "1",
    });
    const reused = withScopeLock({ environment, scope: "user" }, (lock) => lock.diagnostics);
    expect(reused.map((d) => d.code)).toEqual(["lock_recovered"]);
    plantLock(dir, undefined);
    writeFileSync(join(dir, ".lock", "owner.json"), "not an owner");
    const nameless = withScopeLock({ environment, scope: "user" }, (lock) => lock.diagnostics);
    expect(nameless.map((d) => d.code)).toEqual(["lock_recovered"]);
    // an empty lock folder (a release cut short) is no lock at all
    plantLock(dir, undefined);
    expect(withScopeLock({ environment, scope: "user" }, (lock) => lock.diagnostics)).toEqual([]);
  });

  it("never takes the lock from a stopped holder, and the holder commits when it resumes", async () => {
    const environment = storeEnvironment();
    const signals = testdir();
    const [held, done] = [join(signals, "held"), join(signals, "done")];
    const holder = runStoreChild(
      `store.withScopeLock({ environment: args.environment, scope: "user" }, (lock) => {
        writeFileSync(args.held, String(process.pid));
        for (let waited = 0; !existsSync(args.done) && waited < 30000; waited += 10) sleep(10);
        lock.assertHeld();
        console.log("still held");
      });`,
      { environment, held, done },
    );
    const pid = await writtenPid(held);
    process.kill(pid, "SIGSTOP");
    try {
      // a lock untouched for an hour was stale by the clock the old lock kept
      const old = new Date(Date.now() - 3_600_000);
      utimesSync(join(packagesDir(environment, "user"), ".lock"), old, old);
      const refused = errorOf(() => withScopeLock({ environment, scope: "user" }, () => 1));
      expect(refused).toMatchObject({ code: "locked", details: { pid } });
    } finally {
      writeFileSync(done, "");
      process.kill(pid, "SIGCONT");
    }
    expect(await holder).toMatchObject({ code: 0, stdout: "still held\n", stderr: "" });
  });

  it("lets a signal end a holder at once, even inside a synchronous writer", async () => {
    const environment = storeEnvironment();
    const signals = testdir();
    const [held, finished] = [join(signals, "held"), join(signals, "finished")];
    const holder = runStoreChild(
      `store.withScopeLock({ environment: args.environment, scope: "user" }, () => {
        writeFileSync(args.held, "");
        for (let waited = 0; waited < 20000; waited += 10) sleep(10);
        writeFileSync(args.finished, "");
      });`,
      { environment, held, finished },
    );
    while (!existsSync(held)) await new Promise((resolve) => setTimeout(resolve, 10));
    const pid = holderPid(
      readFileSync(join(packagesDir(environment, "user"), ".lock", "owner.json"), "utf8").match(
        /"pid":(\d+)/,
      )?.[1],
    );
    process.kill(pid, "SIGTERM");
    expect(await holder).toMatchObject({ signal: "SIGTERM" });
    expect(existsSync(finished)).toBe(false);
    const diagnostics = withScopeLock({ environment, scope: "user" }, (lock) => lock.diagnostics);
    expect(diagnostics.map((d) => d.code)).toEqual(["lock_recovered"]);
  });

  it("lets one process at a time in: eight processes counting under it lose no count", async () => {
    const environment = storeEnvironment();
    const counter = join(testdir(), "count");
    writeFileSync(counter, "0");
    const body = `${RETRY_WHILE_LOCKED}
    let taken = 0;
    for (let round = 0; round < 150; round++)
      retry(() => store.withScopeLock({ environment: args.environment, scope: "user" }, () => {
        const count = Number(fs.readFileSync(args.counter, "utf8"));
        fs.writeFileSync(args.counter, String(count + 1));
        taken++;
      }));
    console.log(taken);`;
    const runs = await Promise.all(
      Array.from({ length: 8 }, () => runStoreChild(body, { environment, counter })),
    );
    expect(runs.map((run) => run.stderr)).toEqual(Array(8).fill(""));
    const taken = runs.reduce((sum, run) => sum + Number(run.stdout.trim()), 0);
    expect(taken).toBe(8 * 150);
    expect(readFileSync(counter, "utf8")).toBe(String(taken));
  });

  it("refuses a packages folder that is a symlink", () => {
    const environment = storeEnvironment();
    const dir = packagesDir(environment, "user");
    mkdirSync(join(dir, ".."), { recursive: true });
    const real = join(environment.home, "real-packages");
    mkdirSync(real);
    symlinkSync(real, dir);
    expect(errorOf(() => withScopeLock({ environment, scope: "user" }, () => 1))?.code).toBe(
      "library_symlinked",
    );
  });
});

/**
 * The pid a child wrote to `file`, once all of it is there: the file exists as soon as it is
 * created, and an empty read is pid 0, which `process.kill` takes as this whole process group.
 */
async function writtenPid(file: string): Promise<number> {
  for (;;) {
    const text = existsSync(file) ? readFileSync(file, "utf8") : "";
    if (/^\d+$/.test(text)) return holderPid(text);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A pid to signal: a positive number, never 0 or -1 (a process group, or every process). */
function holderPid(text: string | undefined): number {
  const pid = Number(text);
  if (!Number.isInteger(pid) || pid <= 1) throw new Error(`not a holder's pid: ${text}`);
  return pid;
}
