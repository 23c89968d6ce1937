import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { digestTree } from "@skillshelf/core";
import {
  createScopeCache,
  packagesDir,
  readPackageManifest,
  readPackageSnapshot,
  readScopeState,
  recheckCopies,
} from "@skillshelf/store";
import { installPackage, recoverScope } from "@skillshelf/store/writers";
import { describe, expect, it } from "vitest";
import { withFaultHook } from "../src/testing.js";
import {
  errorOf,
  facts,
  install,
  installInput,
  installStaged,
  localOrigin,
  remove,
  stagePackage,
  storeEnvironment,
  switchCopy,
  writeStepJournal,
  writtenEntries,
} from "./_store.js";

describe("installPackage", () => {
  it("installs a copy, records it and reads back loadable", () => {
    const environment = storeEnvironment();
    const result = install(environment, "user", { id: "pdf", version: "1.2.0" });
    const dir = packagesDir(environment, "user");
    expect(result.dir).toBe(join(dir, "pdf"));
    expect(result.diagnostics).toEqual([]);
    const state = readScopeState(environment, "user");
    if (!state.ok) throw new Error("state unreadable");
    expect(state.value.state.installed.pdf).toMatchObject({
      kind: "plugin",
      version: "1.2.0",
      format: "skillshelf",
      trust: "trusted",
    });
    expect(digestTree(join(dir, "pdf")).digest).toBe(
      state.value.state.installed.pdf?.contentDigest,
    );
    const snapshot = readPackageSnapshot(environment);
    expect(snapshot.copies.map((copy) => [copy.scope, copy.id, copy.state])).toEqual([
      ["user", "pdf", "loadable"],
    ]);
    expect(writtenEntries(dir).sort()).toEqual(
      [".lock", "pdf", "state.json"].filter((name) => name !== ".lock"),
    );
  });

  it("reads the copy back after the commit, unless the caller reads it back itself", () => {
    for (const readBack of [undefined, false]) {
      const environment = storeEnvironment();
      const staged = stagePackage({ id: "pdf" });
      const copy = join(packagesDir(environment, "user"), "pdf");
      const input = withFaultHook(
        installInput(environment, "user", "pdf", staged, { readBack }),
        (point) => {
          if (point === "settled")
            writeFileSync(join(copy, "extra.md"), "changed after the commit");
        },
      );
      const codes = installPackage(input).diagnostics.map((diagnostic) => diagnostic.code);
      expect({ readBack, codes }).toEqual({
        readBack,
        codes: readBack === false ? [] : ["verification"],
      });
    }
  });

  it("takes the manifest the cache kept for the staged digest instead of reading it again", () => {
    const environment = storeEnvironment();
    const staged = stagePackage({ id: "pdf", version: "1.0.0" });
    const read = readPackageManifest(staged.dir);
    if (!read.ok) throw new Error("manifest unreadable");
    // a kept manifest is trusted as the tree's own: the record shows it was not re-read
    const cache = createScopeCache();
    cache.manifests.set(staged.digest, {
      dir: staged.dir,
      manifest: { ...read.value, version: "1.0.1" },
    });
    installStaged(environment, "user", "pdf", staged, { cache });
    const state = readScopeState(environment, "user");
    expect(state.ok && state.value.state.installed.pdf?.version).toBe("1.0.1");
  });

  it("replaces a copy, deletes the unchanged old tree and keeps the disabled flag", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf", version: "1.0.0" });
    switchCopy(environment, "user", "pdf", false);
    const result = install(environment, "user", { id: "pdf", version: "2.0.0" });
    expect(result.packageBackup).toBeUndefined();
    const snapshot = readPackageSnapshot(environment);
    expect(snapshot.copies[0]).toMatchObject({ state: "disabled", record: { version: "2.0.0" } });
    expect(writtenEntries(packagesDir(environment, "user")).sort()).toEqual(["pdf", "state.json"]);
  });

  it("keeps a backup of a replaced tree whose bytes differ from its record", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf" });
    const edited = join(packagesDir(environment, "user"), "pdf", "skills", "pdf", "SKILL.md");
    writeFileSync(edited, "---\nname: pdf\ndescription: my edit\n---\nmine\n");
    expect(readPackageSnapshot(environment).copies[0]?.state).toBe("damaged");
    const result = install(environment, "user", { id: "pdf", version: "1.1.0" });
    expect(result.packageBackup).toMatch(/\.pdf\.backup-\d+-[0-9a-f]+$/);
    expect(
      readFileSync(join(result.packageBackup as string, "skills", "pdf", "SKILL.md"), "utf8"),
    ).toContain("my edit");
    expect(readPackageSnapshot(environment).copies[0]?.state).toBe("loadable");
  });

  it("refuses a plan whose reviewed facts changed, naming the fact", () => {
    const environment = storeEnvironment();
    const reviewed = facts(environment, "user", "pdf");
    install(environment, "user", { id: "pdf" });
    const staged = stagePackage({ id: "pdf", version: "2.0.0" });
    const refused = errorOf(() =>
      installPackage({
        environment,
        scope: "user",
        staged,
        origin: localOrigin(staged.dir),
        reviewed,
      }),
    );
    expect(refused?.code).toBe("stale_plan");
    expect(refused?.details).toMatchObject({
      scope: "user",
      id: "pdf",
      fact: "tree",
      expected: null,
    });
  });

  it("names the changed record field of a stale plan", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf" });
    const reviewed = facts(environment, "user", "pdf");
    const changed = {
      ...reviewed,
      record: { ...reviewed.record, trust: "foreign" },
    } as typeof reviewed;
    const staged = stagePackage({ id: "pdf", version: "2.0.0" });
    const refused = errorOf(() =>
      installPackage({
        environment,
        scope: "user",
        staged,
        origin: localOrigin(staged.dir),
        reviewed: changed,
      }),
    );
    expect(refused?.details).toMatchObject({
      fact: "trust",
      expected: "foreign",
      observed: "trusted",
    });
  });

  it.each([
    ["id", { id: "other" }, "identity_mismatch"],
    ["version", { version: "9.9.9" }, "identity_mismatch"],
    ["kind", { kind: "skill" as const }, "identity_mismatch"],
    ["digest", { digest: "0".repeat(64) }, "digest_mismatch"],
  ])("refuses a staged package whose %s differs from the pin", (_fact, expected, code) => {
    const environment = storeEnvironment();
    const staged = stagePackage({ id: "pdf" });
    const refused = errorOf(() => installStaged(environment, "user", "pdf", staged, { expected }));
    expect(refused?.code).toBe(code);
    expect(existsSync(packagesDir(environment, "user"))).toBe(false);
  });

  it("refuses a staged folder whose files changed after review", () => {
    const environment = storeEnvironment();
    const staged = stagePackage({ id: "pdf" });
    writeFileSync(join(staged.dir, "extra.md"), "late\n");
    const refused = errorOf(() => installStaged(environment, "user", "pdf", staged));
    expect(refused?.code).toBe("digest_mismatch");
    expect(writtenEntries(packagesDir(environment, "user"))).toEqual([]);
  });

  it("refuses to change a package's kind in place", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf" });
    const staged = stagePackage({ id: "pdf", kind: "skill" });
    const refused = errorOf(() => installStaged(environment, "user", "pdf", staged));
    expect(refused?.code).toBe("kind_change");
  });

  it("refuses an invalid staged manifest", () => {
    const environment = storeEnvironment();
    const staged = stagePackage({ id: "pdf", files: { "plugin.json": "{}" } });
    expect(errorOf(() => installStaged(environment, "user", "pdf", staged))?.code).toBe(
      "manifest_invalid",
    );
  });
});

describe("setEnabled and removePackage", () => {
  it("disables and enables a copy", () => {
    const environment = storeEnvironment();
    install(environment, "project", { id: "pdf" });
    switchCopy(environment, "project", "pdf", false);
    expect(readPackageSnapshot(environment).copies[0]?.state).toBe("disabled");
    const again = switchCopy(environment, "project", "pdf", false);
    expect(again.diagnostics.map((d) => d.code)).toEqual(["unchanged"]);
    switchCopy(environment, "project", "pdf", true);
    expect(readPackageSnapshot(environment).copies[0]?.state).toBe("loadable");
  });

  it("refuses to disable or remove what a loadable dependent needs", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "base", kind: "skill" });
    install(environment, "user", { id: "app", requires: ["skill:base"] });
    const disable = errorOf(() => switchCopy(environment, "user", "base", false));
    expect(disable?.code).toBe("dependents");
    expect(disable?.details).toEqual({
      dependents: [{ id: "app", scope: "user", missing: ["skill:base"] }],
      change: "disable",
    });
    // the catalogue's hint, filled from the details
    expect(disable?.hint).toMatch(/^disable the dependents first/);
    expect(errorOf(() => remove(environment, "user", "base"))?.code).toBe("dependents");
    switchCopy(environment, "user", "app", false);
    remove(environment, "user", "base");
    expect(readPackageSnapshot(environment).copies.map((copy) => copy.id)).toEqual(["app"]);
  });

  it("lets a project copy go when a user copy still meets the need", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "base", kind: "skill" });
    install(environment, "project", { id: "base", kind: "skill" });
    install(environment, "user", { id: "app", requires: ["skill:base"] });
    remove(environment, "project", "base");
    expect(readPackageSnapshot(environment).copies.find((copy) => copy.id === "base")?.state).toBe(
      "loadable",
    );
  });

  it("removes a copy and keeps its tree when its bytes differ from the record", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf" });
    writeFileSync(join(packagesDir(environment, "user"), "pdf", "notes.md"), "mine\n");
    const result = remove(environment, "user", "pdf");
    expect(result.packageBackup).toMatch(/\.pdf\.removed-\d+-[0-9a-f]+$/);
    expect(readFileSync(join(result.packageBackup as string, "notes.md"), "utf8")).toBe("mine\n");
    expect(readPackageSnapshot(environment).copies).toEqual([]);
  });

  it("refuses to remove what is not installed", () => {
    const environment = storeEnvironment();
    expect(errorOf(() => remove(environment, "user", "pdf"))?.code).toBe("not_installed");
    expect(errorOf(() => switchCopy(environment, "user", "pdf", false))?.code).toBe(
      "not_installed",
    );
  });
});

describe("readPackageSnapshot precedence", () => {
  it("lets a valid project copy win, a disabled one still shadow, and an invalid one not hide the user copy", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf" });
    install(environment, "project", { id: "pdf" });
    const states = () =>
      readPackageSnapshot(environment).copies.map(
        (copy) => `${copy.scope}:${copy.state}${copy.overriddenBy ? `<${copy.overriddenBy}` : ""}`,
      );
    expect(states()).toEqual(["user:shadowed<project", "project:loadable"]);
    switchCopy(environment, "project", "pdf", false);
    expect(states()).toEqual(["user:shadowed<project", "project:disabled"]);
    writeFileSync(join(packagesDir(environment, "project"), "pdf", "plugin.json"), "{ broken");
    expect(states()).toEqual(["user:loadable", "project:damaged<user"]);
  });
});

describe("readPackageSnapshot of some ids", () => {
  // a few ids are looked up one by one; many are found in one listing of the folder
  it.each([
    ["a few ids", []],
    ["many ids", Array.from({ length: 8 }, (_, index) => `absent-${index}`)],
  ])(
    "reads exactly what a whole snapshot says of those copies, unrecorded folders and pending journals too (%s)",
    (_, absent) => {
      const environment = storeEnvironment();
      for (const id of ["a-kit", "b-kit", "c-kit"]) install(environment, "user", { id });
      const dir = packagesDir(environment, "user");
      mkdirSync(join(dir, "stray"));
      writeStepJournal(dir, [
        { id: "b-kit", operation: "install", backup: null, staging: ".b-kit.install-1-0a" },
      ]);
      const ids = ["b-kit", "stray", "not-there", ...absent];
      const some = readPackageSnapshot(environment, { ids });
      const whole = readPackageSnapshot(environment);
      const view = (copies: typeof whole.copies) =>
        copies.map((copy) => [copy.id, copy.state, copy.diagnostics.map((d) => d.code)]);
      expect(view(some.copies)).toEqual(view(whole.copies.filter((copy) => ids.includes(copy.id))));
      expect(view(some.copies).map(([id]) => id)).toEqual(["b-kit", "stray"]);
      expect(some.diagnostics.map((d) => [d.code, d.path])).toEqual([
        ["operation_pending", join(dir, "b-kit")],
      ]);
    },
  );

  it.each([
    ["a tree outside the folder", { backup: "../outside", staging: "../outside" }, []],
    ["another copy's tree", { backup: ".other.backup-1-0a", staging: null }, []],
    ["a link outside every agent folder", {}, [{ key: "../outside", op: "take" }]],
  ])("never moves or deletes what a forged journal names: %s", (_, tree, links) => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf" });
    const dir = packagesDir(environment, "user");
    const outside = join(dir, "..", "outside");
    mkdirSync(outside);
    writeStepJournal(
      dir,
      [{ id: "pdf", operation: "remove", backup: null, staging: null, ...tree }],
      links.map((link) => ({
        ...link,
        temporary: ".outside.link-1-0a",
        record: {
          agent: "claude-code",
          kind: "skill",
          target: "packages/pdf",
          mode: "copy",
          digest: "0".repeat(64),
        },
      })),
    );
    // the next writer settles the scope first, and will not write over a journal it cannot read
    const refused = errorOf(() => install(environment, "user", { id: "pdf", version: "2.0.0" }));
    expect(refused?.code).toBe("journal_unreadable");
    expect(existsSync(outside)).toBe(true);
    expect(readPackageSnapshot(environment).copies.map((copy) => copy.state)).toEqual(["loadable"]);
  });

  it("reports a journal an earlier version wrote, and changes nothing past it", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf" });
    const dir = packagesDir(environment, "user");
    writeFileSync(join(dir, ".pdf.journal.json"), "{}");
    expect(recoverScope({ environment, scope: "user" }).map((d) => [d.code, d.path])).toEqual([
      ["journal_unreadable", join(dir, ".pdf.journal.json")],
    ]);
    expect(errorOf(() => install(environment, "user", { id: "pdf", version: "2.0.0" }))?.code).toBe(
      "journal_unreadable",
    );
  });
});

describe("installPackage refusals that protect what is on disk", () => {
  it("refuses a state.json its reader would refuse for its size, before writing anything", () => {
    const environment = storeEnvironment();
    const dir = packagesDir(environment, "user");
    mkdirSync(dir, { recursive: true });
    // ten records with 1.6 MB source paths: just under the reader's 16 MiB
    const record = (index: number) => ({
      kind: "plugin",
      version: "1.0.0",
      format: "skillshelf",
      installedAt: "2026-01-01T00:00:00.000Z",
      origin: { source: { type: "local", path: `/${String(index).repeat(1_600_000)}` } },
      contentDigest: "a".repeat(64),
      trust: "trusted",
    });
    const installed = Object.fromEntries(
      Array.from({ length: 10 }, (_, index) => [`p${index}`, record(index)]),
    );
    const text = `${JSON.stringify({ version: 1, disabled: [], installed })}\n`;
    writeFileSync(join(dir, "state.json"), text);
    expect(readScopeState(environment, "user").ok).toBe(true);
    const staged = stagePackage({ id: "pdf" });
    const origin = { source: { type: "local" as const, path: `/${"y".repeat(900_000)}` } };
    const refused = errorOf(() =>
      installPackage(installInput(environment, "user", "pdf", staged, { origin })),
    );
    expect(refused).toMatchObject({ code: "scope_file_too_large" });
    expect(readFileSync(join(dir, "state.json"), "utf8")).toBe(text);
    expect(writtenEntries(dir).sort()).toEqual(["state.json"]);
  });

  it("refuses to commit when state.json changed underneath, and rolls the trees back", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf", version: "1.0.0" });
    const statePath = join(packagesDir(environment, "user"), "state.json");
    const staged = stagePackage({ id: "pdf", version: "2.0.0" });
    const input = withFaultHook(installInput(environment, "user", "pdf", staged), (point) => {
      if (point === "state-temporary-written")
        writeFileSync(statePath, `${readFileSync(statePath, "utf8")} `);
    });
    expect(errorOf(() => installPackage(input))?.code).toBe("state_changed");
    expect(
      readPackageSnapshot(environment).copies.map((copy) => [copy.record?.version, copy.state]),
    ).toEqual([["1.0.0", "loadable"]]);
    expect(writtenEntries(packagesDir(environment, "user")).sort()).toEqual(["pdf", "state.json"]);
  });

  it("refuses a symlinked copy folder and a source inside the packages folder", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "other" });
    const dir = packagesDir(environment, "user");
    symlinkSync(join(dir, "other"), join(dir, "pdf"));
    const staged = stagePackage({ id: "pdf" });
    expect(errorOf(() => installStaged(environment, "user", "pdf", staged))?.code).toBe(
      "target_unsafe",
    );
    const inside = { dir: join(dir, "other"), digest: digestTree(join(dir, "other")).digest };
    expect(errorOf(() => installStaged(environment, "user", "other", inside))?.code).toBe(
      "source_overlap",
    );
  });
});

describe("recheckCopies", () => {
  it("digests each recorded copy again: drift, a missing folder and a pending operation", () => {
    const environment = storeEnvironment();
    for (const id of ["a-kit", "b-kit", "c-kit", "d-kit"]) install(environment, "user", { id });
    const dir = packagesDir(environment, "user");
    writeFileSync(join(dir, "b-kit", "plugin.json"), "{}");
    rmSync(join(dir, "c-kit"), { recursive: true });
    writeStepJournal(dir, [{ id: "d-kit", operation: "install", backup: null, staging: null }]);
    const state = readScopeState(environment, "user");
    if (!state.ok) throw new Error("state unreadable");
    expect(
      recheckCopies(environment, "user", state.value.state).map((d) => [d.code, d.path]),
    ).toEqual([
      ["content_drift", join(dir, "b-kit")],
      ["copy_missing", join(dir, "c-kit")],
      ["operation_pending", join(dir, "d-kit")],
    ]);
  });
});

describe("a lock folder another process is preparing", () => {
  it("is left alone by the writer holding the lock while that process runs, and removed once it is gone", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf", version: "1.0.0" });
    const dir = packagesDir(environment, "user");
    // this test's own process is alive; a finished child's pid is not
    const alive = join(dir, `.lock.tmp-${process.pid}-aa11`);
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    const dead = join(dir, `.lock.tmp-${gone}-bb22`);
    for (const prepared of [alive, dead]) {
      mkdirSync(prepared);
      writeFileSync(join(prepared, "owner.json"), "{}\n");
    }
    const diagnostics = recoverScope({ environment, scope: "user" });
    expect(existsSync(alive)).toBe(true);
    expect(existsSync(dead)).toBe(false);
    expect(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.path])).toEqual([
      ["leftover_removed", dead],
    ]);
  });
});
