import type { Environment } from "@skillshelf/core";
import {
  lockFromState,
  lockRoot,
  packagesDir,
  readLockFile,
  readPackageSnapshot,
  readScopeState,
} from "@skillshelf/store";
import { recoverScope } from "@skillshelf/store/writers";
import { describe, expect, it } from "vitest";
import { runStoreChild } from "./_child.js";
import {
  facts,
  install,
  localOrigin,
  stagePackage,
  storeEnvironment,
  writtenEntries,
} from "./_store.js";

/** Kill the child with SIGKILL when the writer reaches `point`. */
const KILL_AT = `const hook = (point) => { if (point === args.point) process.kill(process.pid, "SIGKILL"); };`;

function versionOf(environment: Environment): string | undefined {
  const copies = readPackageSnapshot(environment).copies;
  expect(copies.every((copy) => copy.state === "loadable")).toBe(true);
  return copies[0]?.record?.version;
}

async function crashAt(body: string, args: Record<string, unknown>) {
  const exit = await runStoreChild(`${KILL_AT}\n${body}`, args);
  expect(exit.stderr).toBe("");
  return exit.signal === "SIGKILL";
}

function expectSettled(environment: Environment, killed: boolean) {
  const diagnostics = recoverScope({ environment, scope: "user" }).map((d) => d.code);
  if (killed) expect(diagnostics).toContain("lock_recovered");
  expect(
    writtenEntries(packagesDir(environment, "user")).filter((name) => name.startsWith(".")),
  ).toEqual([]);
  expect(recoverScope({ environment, scope: "user" })).toEqual([]);
  // the lock says what the state holds
  const state = readScopeState(environment, "user");
  const lock = readLockFile(environment, "user");
  if (!state.ok || !lock.ok) throw new Error("state or lock unreadable");
  expect(lock.value.value).toEqual(lockFromState(state.value.state, lockRoot(environment, "user")));
  return diagnostics;
}

const INSTALL = "store.installPackage(withFaultHook(args.input, hook));";

describe("a writer killed with SIGKILL leaves the scope as before or as after", () => {
  it.each([
    ["locked", "1.0.0"],
    ["staged", "1.0.0"],
    ["journal-temporary-written", "1.0.0"],
    ["journaled", "1.0.0"],
    ["moved-old", "1.0.0"],
    ["moved-new", "1.0.0"],
    ["state-temporary-written", "1.0.0"],
    ["committed", "2.0.0"],
    ["lock-written", "2.0.0"],
    ["settled", "2.0.0"],
  ])("replacing a copy, killed at %s, reads back as %s", async (point, expected) => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf", version: "1.0.0" });
    const staged = stagePackage({ id: "pdf", version: "2.0.0" });
    const input = {
      environment,
      scope: "user",
      staged,
      origin: localOrigin(staged.dir),
      reviewed: facts(environment, "user", "pdf"),
    };
    const killed = await crashAt(INSTALL, { point, input });
    expect(killed).toBe(true);
    expect(versionOf(environment)).toBe(expected);
    const settled = expectSettled(environment, killed);
    if (["staged", "journal-temporary-written"].includes(point))
      expect(settled).toContain("leftover_removed");
    if (["journaled", "moved-old", "moved-new", "state-temporary-written"].includes(point))
      expect(settled).toContain("operation_rolled_back");
    if (point === "committed")
      expect(settled).toEqual(expect.arrayContaining(["operation_completed", "lock_updated"]));
    expect(versionOf(environment)).toBe(expected);
  });

  it.each([
    ["staged", undefined],
    ["journaled", undefined],
    ["moved-new", undefined],
    ["state-temporary-written", undefined],
    ["committed", "1.0.0"],
    ["lock-written", "1.0.0"],
  ])("a fresh install, killed at %s, reads back with version %s", async (point, expected) => {
    const environment = storeEnvironment();
    const staged = stagePackage({ id: "pdf", version: "1.0.0" });
    const input = {
      environment,
      scope: "user",
      staged,
      origin: localOrigin(staged.dir),
      reviewed: facts(environment, "user", "pdf"),
    };
    expect(await crashAt(INSTALL, { point, input })).toBe(true);
    expect(versionOf(environment)).toBe(expected);
    expectSettled(environment, true);
    expect(versionOf(environment)).toBe(expected);
  });

  it.each([
    ["journaled", "1.0.0"],
    ["moved-old", "1.0.0"],
    ["state-temporary-written", "1.0.0"],
    ["committed", undefined],
    ["lock-written", undefined],
    ["settled", undefined],
  ])("a removal, killed at %s, reads back with version %s", async (point, expected) => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf", version: "1.0.0" });
    const input = {
      environment,
      scope: "user",
      id: "pdf",
      reviewed: facts(environment, "user", "pdf"),
    };
    expect(
      await crashAt("store.removePackage(withFaultHook(args.input, hook));", { point, input }),
    ).toBe(true);
    expect(versionOf(environment)).toBe(expected);
    expectSettled(environment, true);
    expect(versionOf(environment)).toBe(expected);
  });
});
