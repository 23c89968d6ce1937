import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { digestTree, type Environment, type PackageScope } from "@skillshelf/core";
import { applyLifecycle, planLifecycle } from "@skillshelf/lifecycle";
import {
  lockFromState,
  lockRoot,
  packagesDir,
  readLockFile,
  readPackageSnapshot,
  readScopeState,
} from "@skillshelf/store";
import { recoverScope } from "@skillshelf/store/writers";
import { packageTree, runNodeChild, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { environment, installFolder } from "./_lifecycle.js";

const PACKAGES = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dist = (name: string, file = "index.js") => join(PACKAGES, name, "dist", file);

/** Run `body` in a child with the built lifecycle, its fault hook, store and core in scope. */
function lifecycleChild(body: string, args: unknown, timeoutMs = 60_000) {
  for (const name of ["lifecycle", "store", "core"])
    if (!existsSync(dist(name))) throw new Error(`${dist(name)} is missing; run pnpm build first`);
  return runNodeChild({
    imports: {
      lifecycle: dist("lifecycle"),
      "{ withFaultHook }": dist("lifecycle", "testing.js"),
      storeReaders: dist("store"),
      storeWriters: dist("store", "writers.js"),
      core: dist("core"),
      "{ writeFileSync }": "node:fs",
    },
    body: `const store = { ...storeReaders, ...storeWriters };\nconst environment = core.resolveEnvironment({ ...args.env, env: {} });\n${body}`,
    args,
    timeoutMs,
    // a killed child leaves its staging behind: in the test's folder, not the machine's
    env: { TMPDIR: testdir() },
  });
}

const where = (env: Environment) => ({ cwd: env.cwd, home: env.home, configDir: env.configDir });

/** Every check of a scope after a crash and the next run's clean-up. */
/** The ids installed in `scope`, once every copy, the lock and the folder are found consistent. */
function expectConsistent(env: Environment, scope: PackageScope): string[] {
  const installed = readPackageSnapshot(env).copies.filter((copy) => copy.scope === scope);
  for (const copy of installed) expect(copy.state).toBe("loadable");
  const state = readScopeState(env, scope);
  const lock = readLockFile(env, scope);
  if (!state.ok || !lock.ok) throw new Error("state or lock unreadable");
  if (lock.value.text !== undefined)
    expect(lock.value.value).toEqual(lockFromState(state.value.state, lockRoot(env, scope)));
  const left = readdirSync(packagesDir(env, scope)).filter(
    (name) => name.startsWith(".") && name !== ".gitignore" && name !== ".remembered.json",
  );
  expect(left).toEqual([]);
  return installed.map((copy) => copy.id);
}

const APPLY = `
let count = 0;
const hook = (point) => { count += 1; if (count === args.kill) process.kill(process.pid, "SIGKILL"); };
const plan = await lifecycle.planLifecycle({ environment, operation: args.operation, targets: args.targets, scope: "project" });
const result = await lifecycle.applyLifecycle(plan, withFaultHook({}, hook));
console.log(JSON.stringify({ count, statuses: result.outcomes.map((outcome) => outcome.status) }));
`;

const ORDER = ["alpha", "beta", "gamma"];

/**
 * Kill a child applying `operation` to the three packages at every fault point it passes, each
 * in a fresh setup, and return the ids each kill left installed once the next run had settled.
 */
async function crashEverywhere(
  operation: "install" | "remove",
  setup: () => Promise<{ env: Environment; targets: string[] }>,
): Promise<string[][]> {
  const counted = await setup();
  const dry = await lifecycleChild(APPLY, {
    env: where(counted.env),
    targets: counted.targets,
    operation,
    kill: 0,
  });
  expect(dry.stderr).toBe("");
  const { count, statuses } = JSON.parse(dry.stdout);
  expect(statuses).toEqual(["committed", "committed", "committed"]);
  // every point of one commit at least: journal, trees moved, state, lock, trees settled
  expect(count).toBeGreaterThan(8);
  const seen: string[][] = [];
  for (let start = 1; start <= count; start += 4) {
    const kills = Array.from({ length: Math.min(4, count - start + 1) }, (_, i) => start + i);
    await Promise.all(
      kills.map(async (kill) => {
        const { env, targets } = await setup();
        const run = await lifecycleChild(APPLY, { env: where(env), targets, operation, kill });
        expect(run.signal).toBe("SIGKILL");
        const before = readPackageSnapshot(env).copies.length;
        const settled = recoverScope({ environment: env, scope: "project" }).map((d) => d.code);
        expect(settled).toContain("lock_recovered");
        seen.push(expectConsistent(env, "project"));
        expect(readPackageSnapshot(env).copies.length).toBe(before);
      }),
    );
  }
  return seen;
}

describe("a crash anywhere in an apply of three packages", () => {
  it("installs commit together: the scope is as before all three or after all three", async () => {
    const seen = await crashEverywhere("install", async () => ({
      env: environment(),
      targets: ORDER.map((id) => testdir(packageTree({ id }))),
    }));
    for (const ids of seen) expect([[], ORDER]).toContainEqual(ids);
    // the kills landed before and after the one commit
    expect(new Set(seen.map((ids) => ids.length))).toEqual(new Set([0, 3]));
  }, 240_000);

  it("removals commit together: the scope is as before or after all of them", async () => {
    const seen = await crashEverywhere("remove", async () => {
      const env = environment();
      for (const id of ORDER) await installFolder(env, "project", { id });
      return { env, targets: ORDER };
    });
    for (const ids of seen) expect([ORDER, []]).toContainEqual(ids);
    // the kills landed before and after the one commit
    expect(new Set(seen.map((ids) => ids.length))).toEqual(new Set([0, 3]));
  }, 240_000);
});

describe("processes at once", () => {
  it("eight processes applying plans to one scope all land, the lock equal to the state", async () => {
    const env = environment();
    const ids = Array.from({ length: 8 }, (_, index) => `pkg-${index}`);
    const body = `
for (let attempt = 0; ; attempt++) {
  const plan = await lifecycle.planLifecycle({ environment, operation: "install", targets: [args.target] });
  const result = await lifecycle.applyLifecycle(plan);
  const [outcome] = result.outcomes;
  if (outcome.status === "committed") break;
  if (outcome.error?.code !== "locked" || attempt > 400) throw new Error(JSON.stringify(outcome));
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5 + Math.floor(Math.random() * 20));
}`;
    const runs = await Promise.all(
      ids.map((id) =>
        lifecycleChild(body, { env: where(env), target: testdir(packageTree({ id })) }, 120_000),
      ),
    );
    for (const run of runs)
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
    const copies = readPackageSnapshot(env).copies;
    expect(copies.map((copy) => copy.id)).toEqual(ids);
    for (const copy of copies) expect(digestTree(copy.dir).digest).toBe(copy.record?.contentDigest);
    const state = readScopeState(env, "user");
    const lock = readLockFile(env, "user");
    if (!state.ok || !lock.ok) throw new Error("unreadable");
    expect(lock.value.value).toEqual(lockFromState(state.value.state, lockRoot(env, "user")));
  }, 180_000);

  it("fails with locked while another process holds the peer scope's lock, and succeeds afterwards", async () => {
    const env = environment();
    const target = testdir(packageTree({ id: "pdf" }));
    // the project scope's packages folder exists, so its copy of pdf is reviewed too
    const held = await planLifecycle({
      environment: env,
      operation: "install",
      targets: [testdir(packageTree({ id: "other" }))],
      scope: "project",
    });
    await applyLifecycle(held);
    const flag = join(testdir(), "holding");
    const holder = lifecycleChild(
      `store.withScopeLock({ environment, scope: "project" }, () => { writeFileSync(args.flag, "held"); sleep(1500); });`,
      { env: where(env), flag },
    );
    while (!existsSync(flag)) await new Promise((resolve) => setTimeout(resolve, 10));
    const reviewed = await planLifecycle({
      environment: env,
      operation: "install",
      targets: [target],
      scope: "user",
    });
    expect(reviewed.steps[0]?.expected.map((fact) => fact.scope)).toEqual(["user", "project"]);
    const blocked = await applyLifecycle(reviewed);
    expect(blocked.outcomes[0]?.error?.code).toBe("locked");
    expect((await holder).code).toBe(0);
    const retried = await applyLifecycle(
      await planLifecycle({ environment: env, operation: "install", targets: [target] }),
    );
    expect(retried.outcomes[0]?.status).toBe("committed");
  });
});
