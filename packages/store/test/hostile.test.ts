import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  observeCopyFacts,
  packagesDir,
  readPackageManifest,
  readScopeState,
} from "@skillshelf/store";
import { installPackage, removePackage, setEnabled } from "@skillshelf/store/writers";
import { chainedLinkTree, packageTree, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { runStoreChild } from "./_child.js";
import { errorOf, install, localOrigin, stagePackage, storeEnvironment } from "./_store.js";

// Each case is a defect issue 8 reports, reproduced before it was fixed.

const NOTHING = { tree: null, record: null, enabled: true } as const;

describe("item 4: every writer and reader checks the id before touching the disk", () => {
  const writers = {
    removePackage: (environment: ReturnType<typeof storeEnvironment>, id: string) =>
      removePackage({ environment, scope: "user", id, reviewed: NOTHING }),
    setEnabled: (environment: ReturnType<typeof storeEnvironment>, id: string) =>
      setEnabled({ environment, scope: "user", id, enabled: false, reviewed: NOTHING }),
    observeCopyFacts: (environment: ReturnType<typeof storeEnvironment>, id: string) =>
      observeCopyFacts({ environment, scope: "user", id }),
  };

  it.each(
    Object.keys(writers).flatMap((writer) =>
      ["../../victim", "a/b", "", "..", "constructor", "__proto__", "state.json", "UPPER"].map(
        (id) => [writer, id] as [keyof typeof writers, string],
      ),
    ),
  )("%s(%j) is package_id_invalid", (writer, id) => {
    const environment = storeEnvironment();
    const victim = join(dirname(dirname(packagesDir(environment, "user"))), "victim");
    mkdirSync(victim, { recursive: true });
    writeFileSync(join(victim, "keep.md"), "mine");
    expect(errorOf(() => writers[writer](environment, id))?.code).toBe("package_id_invalid");
    expect(existsSync(join(victim, "keep.md"))).toBe(true);
    // refused before the disk: not even the scope's packages folder was made
    expect(existsSync(packagesDir(environment, "user"))).toBe(false);
  });

  it("refuses to install a package whose manifest names a reserved id", () => {
    const environment = storeEnvironment();
    const staged = stagePackage({ id: "constructor" });
    expect(readPackageManifest(staged.dir).diagnostics).toMatchObject([
      { code: "field_invalid", path: join(staged.dir, "plugin.json") },
    ]);
    expect(
      errorOf(() =>
        installPackage({
          environment,
          scope: "user",
          staged,
          origin: localOrigin(staged.dir),
          reviewed: NOTHING,
        }),
      )?.code,
    ).toBe("manifest_invalid");
  });
});

describe("item 1: a chain of .. links", () => {
  it("cannot be installed from any folder, even one not staged by sources", () => {
    const environment = storeEnvironment();
    const dir = testdir(chainedLinkTree());
    expect(
      errorOf(() =>
        installPackage({
          environment,
          scope: "user",
          staged: { dir, digest: "a".repeat(64) },
          origin: localOrigin(dir),
          reviewed: NOTHING,
        }),
      )?.code,
    ).toBe("tree_link_escape");
    expect(existsSync(join(packagesDir(environment, "user"), "leak"))).toBe(false);
  });
});

describe("item 5: only regular files are opened", () => {
  it("a plugin.json that is a FIFO is not_a_file, and nothing blocks", async () => {
    const dir = testdir({ "skills/a/SKILL.md": "---\nname: a\ndescription: d\n---\n" });
    execFileSync("mkfifo", [join(dir, "plugin.json")]);
    const claude = testdir({ "skills/a/SKILL.md": "---\nname: a\ndescription: d\n---\n" });
    mkdirSync(join(claude, ".claude-plugin"));
    execFileSync("mkfifo", [join(claude, ".claude-plugin", "plugin.json")]);
    const run = await runStoreChild(
      "console.log(JSON.stringify(args.dirs.map((dir) => store.readPackageManifest(dir).diagnostics.map((d) => d.code))));",
      { dirs: [dir, claude] },
      { timeoutMs: 20_000 },
    );
    expect(run.killed, "reading a FIFO blocked").toBe(false);
    expect(JSON.parse(run.stdout)).toEqual([["not_a_file"], ["not_a_file"]]);
  });

  it("a journal that is a FIFO is reported and skipped, and nothing blocks", async () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf" });
    execFileSync("mkfifo", [join(packagesDir(environment, "user"), ".pdf.journal.json")]);
    const run = await runStoreChild(
      "console.log(JSON.stringify(store.readPackageSnapshot(args.environment).diagnostics.map((d) => d.code)));",
      { environment },
      { timeoutMs: 20_000 },
    );
    expect(run.killed, "reading a FIFO blocked").toBe(false);
    expect(JSON.parse(run.stdout)).toContain("journal_unreadable");
  });
});

describe("item 8: prototype keys are refused", () => {
  const state = (installed: string) => `{"version":1,"disabled":[],"installed":${installed}}\n`;
  const record = JSON.stringify({
    kind: "plugin",
    version: "1.0.0",
    format: "skillshelf",
    installedAt: "2026-01-01T00:00:00.000Z",
    origin: { source: { type: "local", path: "/x" } },
    contentDigest: "a".repeat(64),
    trust: "trusted",
  });

  it.each([
    ["a __proto__ id", state(`{"__proto__":${record}}`)],
    ["a constructor id", state(`{"constructor":${record}}`)],
    ["a __proto__ key at the top", `{"__proto__":{},"version":1,"disabled":[],"installed":{}}`],
    ["a __proto__ key in a record", state(`{"pdf":${record.replace("{", '{"__proto__":1,')}}`)],
    ["an escaped __proto__ key", state(`{"pdf":${record.replace("{", '{"\\u005f_proto__":1,')}}`)],
  ])("a state.json with %s is state_invalid, never read as valid", (_name, text) => {
    const environment = storeEnvironment();
    mkdirSync(packagesDir(environment, "user"), { recursive: true });
    writeFileSync(join(packagesDir(environment, "user"), "state.json"), text);
    const result = readScopeState(environment, "user");
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.diagnostics.map((d) => d.code)).toContain("state_invalid");
  });

  it("a manifest with a __proto__ key is manifest_json", () => {
    const tree = packageTree({ id: "pdf" });
    const text = String(tree["plugin.json"]).replace("{", '{"__proto__": {"name": "x"},');
    const dir = testdir({ ...tree, "plugin.json": text });
    expect(readPackageManifest(dir).diagnostics.map((d) => d.code)).toEqual(["manifest_json"]);
  });
});
