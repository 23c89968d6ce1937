import { linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createScopeCache,
  packagesDir,
  readLockFile,
  readPackageSnapshot,
  readScopeState,
  serializeLockFile,
  serializeScopeState,
} from "@skillshelf/store";
import { installPackage, setEnabled } from "@skillshelf/store/writers";
import { describe, expect, it } from "vitest";
import { errorOf, facts, install, localOrigin, stagePackage, storeEnvironment } from "./_store.js";

const record = {
  kind: "plugin",
  version: "1.0.0",
  format: "skillshelf",
  installedAt: "2026-11-30T08:00:00.000Z",
  origin: { source: { type: "local", path: "/src/pdf" } },
  contentDigest: "a".repeat(64),
  trust: "trusted",
};
const valid = { version: 1, disabled: [], installed: { pdf: record } };

function writeState(text: string) {
  const environment = storeEnvironment();
  const dir = packagesDir(environment, "user");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "state.json"), text);
  return { environment, path: join(dir, "state.json") };
}

const codesOf = (result: ReturnType<typeof readScopeState>) =>
  result.ok ? [] : result.diagnostics.map((d) => d.code);

describe("readScopeState", () => {
  it("reads an absent file as an empty state and a valid file as written", () => {
    const environment = storeEnvironment();
    expect(readScopeState(environment, "project")).toMatchObject({
      ok: true,
      value: { state: { version: 1, disabled: [], installed: {} }, text: undefined },
    });
    const written = writeState(serializeScopeState(valid as never));
    expect(readScopeState(written.environment, "user")).toMatchObject({
      ok: true,
      value: { state: valid },
    });
  });

  it("reads a record's file fingerprints as written", () => {
    const files = { "SKILL.md": "0123456789abcdef", "references/a b.md": "fedcba9876543210" };
    const withFiles = { ...valid, installed: { pdf: { ...record, files } } };
    const { environment } = writeState(JSON.stringify(withFiles));
    const result = readScopeState(environment, "user");
    expect(result.ok ? result.value.state.installed.pdf?.files : undefined).toEqual(files);
  });

  it.each<[string, unknown, string[]]>([
    ["not JSON", "{ nope", ["state_invalid"]],
    ["a list", "[]", ["state_invalid", "field_invalid"]],
    ["another version", { ...valid, version: 2 }, ["state_invalid", "field_invalid"]],
    ["an unknown key", { ...valid, extra: true }, ["state_invalid", "key_unknown"]],
    ["no installed map", { version: 1, disabled: [] }, ["state_invalid", "key_missing"]],
    [
      "a repeated disabled id",
      { ...valid, disabled: ["pdf", "pdf"] },
      ["state_invalid", "field_invalid"],
    ],
    ["a bad disabled id", { ...valid, disabled: ["PDF"] }, ["state_invalid", "field_invalid"]],
    [
      "a bad installed id",
      { ...valid, installed: { "../x": record } },
      ["state_invalid", "field_invalid"],
    ],
    [
      "a short digest",
      { ...valid, installed: { pdf: { ...record, contentDigest: "abc" } } },
      ["state_invalid", "field_invalid"],
    ],
    [
      "an unknown trust",
      { ...valid, installed: { pdf: { ...record, trust: "maybe" } } },
      ["state_invalid", "field_invalid"],
    ],
    [
      "a trusted claude-code package",
      { ...valid, installed: { pdf: { ...record, format: "claude-code" } } },
      ["state_invalid", "field_invalid"],
    ],
    [
      "an unknown source type",
      {
        ...valid,
        installed: { pdf: { ...record, origin: { source: { type: "ftp", url: "x" } } } },
      },
      ["state_invalid", "field_invalid"],
    ],
    [
      "a bad time",
      { ...valid, installed: { pdf: { ...record, installedAt: "yesterday" } } },
      ["state_invalid", "field_invalid"],
    ],
    [
      "an unknown record key",
      { ...valid, installed: { pdf: { ...record, pinned: true } } },
      ["state_invalid", "key_unknown"],
    ],
    ...[
      ["a file fingerprint that is not text", { "SKILL.md": 7 }],
      ["an empty file fingerprint", { "SKILL.md": "" }],
      ["a file with no path", { "": "0123456789abcdef" }],
      ["files as a list", ["0123456789abcdef"]],
      ["files as text", "0123456789abcdef"],
    ].map(([name, files]): [string, unknown, string[]] => [
      name as string,
      { ...valid, installed: { pdf: { ...record, files } } },
      ["state_invalid", "field_invalid"],
    ]),
  ])("refuses %s", (_name, content, expected) => {
    const { environment, path } = writeState(
      typeof content === "string" ? content : JSON.stringify(content),
    );
    const result = readScopeState(environment, "user");
    expect(codesOf(result)).toEqual(expected);
    expect(result.ok ? undefined : result.diagnostics[0]?.path).toBe(path);
  });

  it.each<[string, (path: string) => void]>([
    [
      "a symlink",
      (path) => {
        writeFileSync(`${path}.real`, JSON.stringify(valid));
        symlinkSync(`${path}.real`, path);
      },
    ],
    [
      "a hard-linked file",
      (path) => {
        writeFileSync(path, JSON.stringify(valid));
        linkSync(path, `${path}.other`);
      },
    ],
    ["a folder", (path) => mkdirSync(path)],
  ])("refuses %s", (_name, make) => {
    const environment = storeEnvironment();
    const dir = packagesDir(environment, "user");
    mkdirSync(dir, { recursive: true });
    make(join(dir, "state.json"));
    expect(codesOf(readScopeState(environment, "user"))).toEqual(["state_unsafe"]);
  });

  it("makes every copy of a scope with a corrupt state invalid and never overwrites the file", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf" });
    const path = join(packagesDir(environment, "user"), "state.json");
    writeFileSync(path, '{"version": 1, "disabled": [], "installed": {"pdf": {"kind": "plugin"}}}');
    const snapshot = readPackageSnapshot(environment);
    expect(
      snapshot.copies.map((copy) => [copy.id, copy.state, copy.diagnostics.map((d) => d.code)]),
    ).toEqual([["pdf", "invalid", ["state_unreadable"]]]);
    expect(snapshot.diagnostics.map((d) => d.code)).toContain("state_invalid");
    expect(errorOf(() => facts(environment, "user", "pdf"))?.code).toBe("state_invalid");
    const staged = stagePackage({ id: "other" });
    const refused = errorOf(() =>
      installPackage({
        environment,
        scope: "user",
        staged,
        origin: localOrigin(staged.dir),
        reviewed: { tree: null, record: null, enabled: true },
      }),
    );
    expect(refused?.code).toBe("state_invalid");
    expect(readFileSync(path, "utf8")).toBe(
      '{"version": 1, "disabled": [], "installed": {"pdf": {"kind": "plugin"}}}',
    );
  });
});

describe("a scope cache", () => {
  it("reuses a parse while the text is unchanged, and reads again (strictly) once it changes", () => {
    const { environment, path } = writeState(JSON.stringify(valid));
    const cache = createScopeCache();
    const first = readScopeState(environment, "user", cache);
    const again = readScopeState(environment, "user", cache);
    expect(first.ok && again.ok && again.value.state === first.value.state).toBe(true);
    // without the cache every read parses anew
    const uncached = readScopeState(environment, "user");
    expect(uncached.ok && first.ok && uncached.value.state !== first.value.state).toBe(true);
    writeFileSync(path, JSON.stringify({ ...valid, disabled: ["pdf"] }));
    const changed = readScopeState(environment, "user", cache);
    expect(changed.ok && changed.value.state.disabled).toEqual(["pdf"]);
    writeFileSync(path, JSON.stringify({ ...valid, extra: 1 }));
    const broken = readScopeState(environment, "user", cache);
    expect(broken.ok ? [] : broken.diagnostics.map((d) => [d.code, d.path])).toContainEqual([
      "state_invalid",
      path,
    ]);
  });

  it("is told what writers wrote, exactly as a fresh strict read gives it", () => {
    const cached = storeEnvironment();
    const cache = createScopeCache();
    for (const id of ["a-kit", "b-kit"]) {
      const staged = stagePackage({ id });
      installPackage({
        environment: cached,
        scope: "user",
        cache,
        staged,
        origin: localOrigin(staged.dir),
        reviewed: facts(cached, "user", id),
      });
    }
    setEnabled({
      environment: cached,
      scope: "user",
      id: "a-kit",
      enabled: false,
      reviewed: facts(cached, "user", "a-kit"),
      cache,
    });
    const fresh = readScopeState(cached, "user");
    if (!fresh.ok) throw new Error("state unreadable");
    expect(Object.keys(fresh.value.state.installed)).toEqual(["a-kit", "b-kit"]);
    const kept = readScopeState(cached, "user", cache);
    // the same values, no `undefined` field or other prototype the file would not give
    expect(kept.ok && kept.value.state).toStrictEqual(fresh.value.state);
    expect(kept.ok && kept.value.state).not.toBe(fresh.value.state);
    // and the records serialised once and reused make exactly the text a full pass makes
    expect(fresh.value.text).toBe(serializeScopeState(fresh.value.state));
    const lock = readLockFile(cached, "user", cache);
    const freshLock = readLockFile(cached, "user");
    if (!freshLock.ok) throw new Error("lock unreadable");
    expect(lock.ok && lock.value.value).toStrictEqual(freshLock.value.value);
    expect(freshLock.value.text).toBe(serializeLockFile(freshLock.value.value));
  });
});
