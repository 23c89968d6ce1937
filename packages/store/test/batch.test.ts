import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Environment } from "@skillshelf/core";
import {
  createScopeCache,
  lockFromState,
  lockRoot,
  observeCopyFacts,
  packagesDir,
  readLockFile,
  readPackageSnapshot,
  readScopeState,
  recheckCopies,
} from "@skillshelf/store";
import {
  type InstallPackageInput,
  installPackages,
  recoverScope,
  removePackages,
  setEnabledMany,
} from "@skillshelf/store/writers";
import { describe, expect, it } from "vitest";
import { withFaultHook } from "../src/testing.js";
import { runStoreChild } from "./_child.js";
import {
  facts,
  install,
  installInput,
  stagePackage,
  storeEnvironment,
  writtenEntries,
} from "./_store.js";

function inputFor(environment: Environment, id: string, version: string): InstallPackageInput {
  return installInput(environment, "user", id, stagePackage({ id, version }));
}

/** Each installed copy's version, by id; every copy must be loadable. */
function versions(environment: Environment): Record<string, string | undefined> {
  const copies = readPackageSnapshot(environment).copies;
  expect(copies.filter((copy) => copy.state !== "loadable")).toEqual([]);
  return Object.fromEntries(copies.map((copy) => [copy.id, copy.record?.version]));
}

function expectLockMatchesState(environment: Environment): void {
  const state = readScopeState(environment, "user");
  const lock = readLockFile(environment, "user");
  if (!state.ok || !lock.ok) throw new Error("state or lock unreadable");
  expect(lock.value.value).toEqual(lockFromState(state.value.state, lockRoot(environment, "user")));
}

/** A scope holding pdf 1.0.0, and the inputs that replace it with 2.0.0 and add docx and xlsx. */
function replaceOneAddTwo(): { environment: Environment; inputs: InstallPackageInput[] } {
  const environment = storeEnvironment();
  install(environment, "user", { id: "pdf", version: "1.0.0" });
  const inputs = [
    inputFor(environment, "pdf", "2.0.0"),
    inputFor(environment, "docx", "1.0.0"),
    inputFor(environment, "xlsx", "1.0.0"),
  ];
  return { environment, inputs };
}

describe("installPackages", () => {
  it("installs every package with one commit, the lock listing them all", () => {
    const { environment, inputs } = replaceOneAddTwo();
    const batch = installPackages(inputs);
    expect(batch.failure).toBeUndefined();
    expect(batch.results.map((result) => [result.id, result.record?.version])).toEqual([
      ["pdf", "2.0.0"],
      ["docx", "1.0.0"],
      ["xlsx", "1.0.0"],
    ]);
    expect(batch.results.flatMap((result) => result.diagnostics)).toEqual([]);
    expect(versions(environment)).toEqual({ docx: "1.0.0", pdf: "2.0.0", xlsx: "1.0.0" });
    expectLockMatchesState(environment);
    const dir = packagesDir(environment, "user");
    expect(writtenEntries(dir).filter((name) => name.startsWith("."))).toEqual([]);
  });

  it("commits the packages before the first that fails and leaves the rest unattempted", () => {
    const environment = storeEnvironment();
    const inputs = [
      inputFor(environment, "docx", "1.0.0"),
      inputFor(environment, "pdf", "1.0.0"),
      inputFor(environment, "xlsx", "1.0.0"),
    ];
    // the second package's files change after it was reviewed
    writeFileSync(join((inputs[1] as InstallPackageInput).staged.dir, "extra.txt"), "late\n");
    const batch = installPackages(inputs);
    expect(batch.results.map((result) => result.id)).toEqual(["docx"]);
    expect({ index: batch.failure?.index, code: batch.failure?.error.code }).toEqual({
      index: 1,
      code: "digest_mismatch",
    });
    expect(versions(environment)).toEqual({ docx: "1.0.0" });
    expectLockMatchesState(environment);
    expect(readdirSync(packagesDir(environment, "user"))).not.toContain(".xlsx.journal.json");
  });

  it("refuses a stale plan for one package at its index, committing nothing when it is the first", () => {
    const environment = storeEnvironment();
    const inputs = [inputFor(environment, "pdf", "1.0.0"), inputFor(environment, "docx", "1.0.0")];
    install(environment, "user", { id: "pdf", version: "0.9.0" });
    const batch = installPackages(inputs);
    expect(batch.results).toEqual([]);
    expect({ index: batch.failure?.index, code: batch.failure?.error.code }).toEqual({
      index: 0,
      code: "stale_plan",
    });
    expect(versions(environment)).toEqual({ pdf: "0.9.0" });
  });

  it("observes many copies in one reading and still refuses the one changed since review, at its index", () => {
    const environment = storeEnvironment();
    // past the few ids looked up one by one: the scope's folder is listed once for all of them
    const ids = Array.from({ length: 40 }, (_, index) => `pkg-${String(index).padStart(2, "0")}`);
    const inputs = ids.map((id) => inputFor(environment, id, "1.0.0"));
    install(environment, "user", { id: "pkg-20", version: "0.9.0" });
    const batch = installPackages(inputs);
    expect(batch.results.map((result) => result.id)).toEqual(ids.slice(0, 20));
    expect({ index: batch.failure?.index, code: batch.failure?.error.code }).toEqual({
      index: 20,
      code: "stale_plan",
    });
    expect(versions(environment)).toEqual({
      ...Object.fromEntries(ids.slice(0, 20).map((id) => [id, "1.0.0"])),
      "pkg-20": "0.9.0",
    });
  });

  it("reports an invalid manifest before taking the lock, at its index", () => {
    const environment = storeEnvironment();
    const broken = inputFor(environment, "docx", "1.0.0");
    writeFileSync(join(broken.staged.dir, "plugin.json"), "{");
    const batch = installPackages([inputFor(environment, "pdf", "1.0.0"), broken]);
    expect(batch.results.map((result) => result.id)).toEqual(["pdf"]);
    expect(batch.failure?.error.code).toBe("manifest_invalid");
    expect(batch.failure?.index).toBe(1);
    expect(existsSync(join(packagesDir(environment, "user"), "docx"))).toBe(false);
  });

  it("journals the whole batch in one file, and an unreadable one stops every writer", () => {
    const { environment, inputs } = replaceOneAddTwo();
    const dir = packagesDir(environment, "user");
    let journals: string[] = [];
    const hook = (point: string) => {
      if (point === "journaled")
        journals = readdirSync(dir).filter((name) => name.endsWith(".journal.json"));
    };
    installPackages(inputs.map((input) => withFaultHook(input, hook)));
    expect(journals).toEqual([".@step.journal.json"]);
    expect(readdirSync(dir).filter((name) => name.endsWith(".journal.json"))).toEqual([]);
    // a journal this version cannot read names no copy: every copy waits for it
    const batch = join(dir, ".@step.journal.json");
    writeFileSync(batch, "{");
    const state = readScopeState(environment, "user");
    if (!state.ok) throw new Error("state unreadable");
    expect(
      recheckCopies(environment, "user", state.value.state).map((d) => [d.code, d.details?.id]),
    ).toEqual([
      // the scope's, for the journal itself, then each copy it may move
      ["operation_pending", undefined],
      ["operation_pending", "docx"],
      ["operation_pending", "pdf"],
      ["operation_pending", "xlsx"],
    ]);
    const refused = installPackages([inputFor(environment, "pptx", "1.0.0")]);
    expect({ code: refused.failure?.error.code, path: refused.failure?.error.path }).toEqual({
      code: "journal_unreadable",
      path: batch,
    });
  });

  it("installs nothing for no inputs", () => {
    expect(installPackages([])).toEqual({ results: [] });
  });
});

const KILL_AT_COUNT = `
let count = 0;
const hook = () => { count += 1; if (count === args.kill) process.kill(process.pid, "SIGKILL"); };
store.installPackages(args.inputs.map((input) => withFaultHook(input, hook)));
console.log(count);`;

describe("installPackages killed with SIGKILL at any point", () => {
  it("leaves the scope before all of the packages or after all of them", async () => {
    const setup = replaceOneAddTwo;
    const counted = setup();
    const dry = await runStoreChild(KILL_AT_COUNT, { inputs: counted.inputs, kill: 0 });
    expect(dry.stderr).toBe("");
    const count = Number(dry.stdout.trim());
    // a journal, three moves in, one old tree moved, state, lock, settle
    expect(count).toBeGreaterThan(10);
    const before = { pdf: "1.0.0" };
    const after = { docx: "1.0.0", pdf: "2.0.0", xlsx: "1.0.0" };
    const seen = new Set<string>();
    for (let start = 1; start <= count; start += 4) {
      const kills = Array.from({ length: Math.min(4, count - start + 1) }, (_, i) => start + i);
      await Promise.all(
        kills.map(async (kill) => {
          const { environment, inputs } = setup();
          const run = await runStoreChild(KILL_AT_COUNT, { inputs, kill });
          expect(run.signal).toBe("SIGKILL");
          expect(recoverScope({ environment, scope: "user" }).map((d) => d.code)).toContain(
            "lock_recovered",
          );
          const found = versions(environment);
          expect([before, after]).toContainEqual(found);
          seen.add(found.docx === undefined ? "before" : "after");
          expectLockMatchesState(environment);
          const dir = packagesDir(environment, "user");
          expect(writtenEntries(dir).filter((name) => name.startsWith("."))).toEqual([]);
        }),
      );
    }
    expect([...seen].sort()).toEqual(["after", "before"]);
  });
});

/** A user scope holding base, app (which needs base) and pdf, and a writer's inputs for `ids`. */
function threeInstalled(...ids: string[]) {
  const environment = storeEnvironment();
  install(environment, "user", { id: "base", kind: "skill" });
  install(environment, "user", { id: "app", requires: ["skill:base"] });
  install(environment, "user", { id: "pdf" });
  const inputs = ids.map((id) => ({
    environment,
    scope: "user" as const,
    id,
    reviewed: facts(environment, "user", id),
  }));
  return { environment, inputs };
}

describe("removePackages", () => {
  it("removes every copy with one commit, a dependent and what it needs together", () => {
    const { environment, inputs } = threeInstalled("app", "base", "pdf");
    const batch = removePackages(inputs);
    expect(batch.failure).toBeUndefined();
    expect(batch.results.map((result) => result.id)).toEqual(["app", "base", "pdf"]);
    expect(readPackageSnapshot(environment).copies).toEqual([]);
    expect(writtenEntries(packagesDir(environment, "user"))).toEqual(["state.json"]);
    expectLockMatchesState(environment);
  });

  it("removes the copies before the first that is not installed, and not the ones after it", () => {
    const { environment, inputs } = threeInstalled("pdf", "gone", "app");
    inputs[1] = {
      ...(inputs[1] as (typeof inputs)[number]),
      reviewed: facts(environment, "user", "gone"),
    };
    const batch = removePackages(inputs);
    expect(batch.results.map((result) => result.id)).toEqual(["pdf"]);
    expect(batch.failure?.index).toBe(1);
    expect(batch.failure?.error.code).toBe("not_installed");
    expect(versions(environment)).toEqual({ app: "1.0.0", base: "1.0.0" });
    expectLockMatchesState(environment);
  });

  it("refuses the whole batch when the copies gone together break a dependent left", () => {
    const { environment, inputs } = threeInstalled("pdf", "base");
    const batch = removePackages(inputs);
    expect(batch.results).toEqual([]);
    expect(batch.failure?.index).toBe(0);
    expect(batch.failure?.error.code).toBe("dependents");
    expect(Object.keys(versions(environment)).sort()).toEqual(["app", "base", "pdf"]);
  });

  it("deletes unread the trees its cache saw match their records, and keeps one edited since", () => {
    const { environment, inputs } = threeInstalled("pdf", "app");
    const cache = createScopeCache();
    readPackageSnapshot(environment, { cache });
    writeFileSync(join(packagesDir(environment, "user"), "app", "notes.md"), "mine\n");
    const batch = removePackages(
      inputs.map((input) => ({
        ...input,
        cache,
        reviewed: observeCopyFacts({ environment, scope: "user", id: input.id, cache }),
      })),
    );
    expect(batch.failure).toBeUndefined();
    const [pdf, app] = batch.results;
    expect(pdf?.packageBackup).toBeUndefined();
    expect(app?.packageBackup).toMatch(/\.app\.removed-\d+-[0-9a-f]+$/);
    expect(existsSync(join(packagesDir(environment, "user"), "pdf"))).toBe(false);
  });

  it("refuses a copy changed since review as a stale plan, removing those before it", () => {
    const { environment, inputs } = threeInstalled("pdf", "app");
    writeFileSync(join(packagesDir(environment, "user"), "app", "late.md"), "late\n");
    const batch = removePackages(inputs);
    expect(batch.results.map((result) => result.id)).toEqual(["pdf"]);
    expect(batch.failure?.error.code).toBe("stale_plan");
  });
});

describe("setEnabledMany", () => {
  /** `threeInstalled`, each input switching its copy on (`enabled`) or off. */
  function switching(enabled: boolean, ...ids: string[]) {
    const { environment, inputs } = threeInstalled(...ids);
    return { environment, inputs: inputs.map((input) => ({ ...input, enabled })) };
  }
  const disabled = (environment: Environment) => {
    const state = readScopeState(environment, "user");
    if (!state.ok) throw new Error("state unreadable");
    return [...state.value.state.disabled].sort();
  };

  it("disables every copy with one state write, a dependent and what it needs together", () => {
    const { environment, inputs } = switching(false, "app", "base", "pdf");
    const statePath = join(packagesDir(environment, "user"), "state.json");
    const before = statSync(statePath).ino;
    const batch = setEnabledMany(inputs);
    expect(batch.failure).toBeUndefined();
    expect(batch.results.map((result) => result.id)).toEqual(["app", "base", "pdf"]);
    expect(disabled(environment)).toEqual(["app", "base", "pdf"]);
    // written by rename once: a fresh inode, and no journal left behind
    expect(statSync(statePath).ino).not.toBe(before);
    expect(
      writtenEntries(packagesDir(environment, "user")).filter((name) => name.startsWith(".")),
    ).toEqual([]);
    expectLockMatchesState(environment);
    const again = setEnabledMany(switching(true, "app", "base").inputs);
    expect(again.failure).toBeUndefined();
  });

  it("says unchanged for a copy already as asked and switches the others", () => {
    const { environment, inputs } = switching(false, "pdf");
    setEnabledMany(inputs);
    const both = switching(false, "pdf", "app");
    const mixed = setEnabledMany(
      both.inputs.map((input) => ({
        ...input,
        environment,
        reviewed: facts(environment, "user", input.id),
      })),
    );
    expect(mixed.failure).toBeUndefined();
    expect(mixed.results.map((result) => result.diagnostics.map((d) => d.code))).toEqual([
      ["unchanged"],
      [],
    ]);
    expect(disabled(environment)).toEqual(["app", "pdf"]);
  });

  it("refuses the whole batch when the copies switched off together break a dependent left on", () => {
    const { environment, inputs } = switching(false, "pdf", "base");
    const batch = setEnabledMany(inputs);
    expect(batch.results).toEqual([]);
    expect(batch.failure?.index).toBe(0);
    expect(batch.failure?.error.code).toBe("dependents");
    expect(disabled(environment)).toEqual([]);
  });

  it("switches the copies before the first not installed or changed since review", () => {
    const { environment, inputs } = switching(false, "pdf", "gone", "app");
    inputs[1] = {
      ...(inputs[1] as (typeof inputs)[number]),
      reviewed: facts(environment, "user", "gone"),
    };
    const batch = setEnabledMany(inputs);
    expect(batch.results.map((result) => result.id)).toEqual(["pdf"]);
    expect(batch.failure).toMatchObject({ index: 1, error: { code: "not_installed" } });
    expect(disabled(environment)).toEqual(["pdf"]);
    const stale = switching(false, "pdf", "app");
    writeFileSync(join(packagesDir(stale.environment, "user"), "app", "late.md"), "late\n");
    const refused = setEnabledMany(stale.inputs);
    expect(refused.results.map((result) => result.id)).toEqual(["pdf"]);
    expect(refused.failure).toMatchObject({ index: 1, error: { code: "stale_plan" } });
  });
});
