import { readFileSync } from "node:fs";
import { join } from "node:path";
import { lockFilePath, packagesDir } from "@skillshelf/store";
import { describe, expect, it } from "vitest";
import { fastLock, fastState } from "../src/_fast-records.js";
import { lockSchema } from "../src/_lock-schema.js";
import { stateSchema } from "../src/_state-schema.js";
import { ENGLISH } from "../src/_zod-english.js";
import { install, installStaged, stagePackage, storeEnvironment, switchCopy } from "./_store.js";

// The fast reader of state.json and lock.json takes only what the schema takes, and gives back
// exactly what the schema gives back (the same keys in the same order, the same prototypes).

const DIGEST = "a".repeat(64);
const COMMIT = "0123456789abcdef0123456789abcdef01234567";

const audit = { rules: "3", highest: "high", found: ["hidden-text"], approved: ["hidden-text"] };
const lockEntry = {
  // written in another order than the schema's: the output takes the schema's
  trust: "trusted",
  kind: "skill",
  version: "1.2.3",
  format: "skillshelf",
  source: { url: "https://example.com/r.git", type: "git", ref: "main", path: "skills/a" },
  commit: COMMIT,
  index: "team",
  digest: DIGEST,
  audit,
  signer: "ssh:SHA256:abcDEF+/09",
  enabled: true,
  requires: ["skill:other"],
};
const lock = {
  version: 1,
  packages: { pdf: lockEntry, "plain.one": { ...lockEntry, audit: { rules: "1" } } },
  links: {
    ".claude/skills/pdf": {
      agent: "claude-code",
      kind: "skill",
      target: "packages/pdf/skills/pdf",
      package: "pdf",
      mode: "symlink",
    },
  },
};
const record = {
  kind: "plugin",
  version: "0.1.0",
  format: "claude-code",
  installedAt: "2026-11-30T08:00:00.000Z",
  origin: { index: "team", source: { type: "local", path: "/src/pdf" }, commit: COMMIT },
  contentDigest: DIGEST,
  trust: "foreign",
  audit,
  signer: "ssh:SHA256:abc",
  requires: [],
  files: { "plugin.json": "0123456789abcdef", "skills/a/SKILL.md": "fedcba9876543210" },
};
const state = {
  version: 1,
  disabled: ["pdf"],
  installed: {
    pdf: { ...record, previous: { ...record, installedAt: "2026-11-29T08:00:00+01:00" } },
    "7zip": { ...record, format: "skillshelf", trust: "trusted" },
  },
  links: {
    ".cursor/skills/pdf": {
      agent: "cursor",
      kind: "skill",
      target: "packages/pdf/skills/pdf",
      mode: "copy",
      digest: DIGEST,
    },
  },
};

/** Values a field may be given instead of its own. */
const HOSTILE: readonly unknown[] = [
  undefined,
  null,
  "",
  " ",
  0,
  1,
  true,
  false,
  [],
  {},
  ["x"],
  "x",
  "__proto__",
  "Skill",
  "SKILL",
  "skill",
  "trusted",
  "foreign",
  "claude-code",
  "symlink",
  "1.0",
  "1.0.0",
  "v1.0.0",
  DIGEST.toUpperCase(),
  `${DIGEST}0`,
  COMMIT,
  "1.0.0@sha512-abc=",
  `sha256:${DIGEST}`,
  "ssh:SHA256:",
  "2026-02-29T00:00:00Z",
  "2028-02-29T00:00:00Z",
  "2026-11-30T24:00:00Z",
  "2026-11-30T23:59:60Z",
  "2026-11-30T08:00:00",
  "2026-11-30T08:00Z",
  "2026-11-30T08:00:00.123456789-05:30",
  "2026-11-30t08:00:00z",
  "../x",
  "a/../b",
  "a//b",
  "/abs",
  { type: "local", path: "/x" },
  { type: "local", path: "/x", extra: 1 },
  { "": "0123456789abcdef" },
  { a: "" },
  { a: 1 },
  [""],
  ["a", "a"],
  ["pdf", "pdf"],
  { rules: "1" },
  { rules: "" },
  { rules: "1", highest: "worst" },
  { rules: "1", extra: true },
];

/** Every document `base` gives with one field (at any depth) replaced, removed or added to. */
function variants(base: unknown): unknown[] {
  const out: unknown[] = [];
  const visit = (value: unknown, replace: (next: unknown) => unknown) => {
    for (const hostile of HOSTILE) out.push(replace(hostile));
    if (typeof value !== "object" || value === null) return;
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries())
        visit(item, (next) => replace(value.map((old, at) => (at === index ? next : old))));
      return;
    }
    out.push(replace({ ...value, unknown: 1 }));
    out.push(replace(Object.assign(JSON.parse('{"__proto__": {"x": 1}}'), value)));
    out.push(replace(Object.assign(Object.create(null), value)));
    out.push(replace(Object.assign(Object.create({ inherited: 1 }), value)));
    for (const key of Object.keys(value)) {
      const { [key]: _dropped, ...rest } = value as Record<string, unknown>;
      out.push(replace(rest));
      visit((value as Record<string, unknown>)[key], (next) => replace({ ...rest, [key]: next }));
    }
  };
  visit(base, (next) => next);
  return out;
}

/** A value as JSON cannot tell it: keys in order, and each object's prototype. */
function exactly(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return ["array", ...value.map(exactly)];
  const prototype = Object.getPrototypeOf(value) === null ? "null" : "object";
  return [prototype, ...Object.entries(value).map(([key, item]) => [key, exactly(item)])];
}

function compare(
  fast: (value: unknown) => unknown,
  schema: { safeParse: (value: unknown, params: typeof ENGLISH) => unknown },
  documents: readonly unknown[],
): number {
  let taken = 0;
  for (const document of documents) {
    const quick = fast(document);
    if (quick === undefined) continue;
    taken += 1;
    const full = schema.safeParse(document, ENGLISH) as { success: boolean; data?: unknown };
    expect({ document, success: full.success }).toEqual({ document, success: true });
    expect(exactly(quick)).toEqual(exactly(full.data));
  }
  return taken;
}

describe("the fast reader of the state and the lock", () => {
  it("takes the documents the schema takes, giving back what it gives", () => {
    expect(lockSchema.safeParse(lock, ENGLISH).error?.issues).toBeUndefined();
    expect(stateSchema.safeParse(state, ENGLISH).error?.issues).toBeUndefined();
    expect(fastLock(lock)).toBeDefined();
    expect(fastState(state)).toBeDefined();
    expect(compare(fastLock, lockSchema, [lock, { version: 1, packages: {} }])).toBe(2);
    expect(
      compare(fastState, stateSchema, [state, { version: 1, disabled: [], installed: {} }]),
    ).toBe(2);
  });

  it("takes nothing the schema refuses, over every one-field change of both files", () => {
    const locks = variants(lock);
    const states = variants(state);
    expect(locks.length).toBeGreaterThan(2_500);
    expect(states.length).toBeGreaterThan(4_500);
    // some changes keep the file valid (an optional field dropped, another valid value)
    expect(compare(fastLock, lockSchema, locks)).toBeGreaterThan(100);
    expect(compare(fastState, stateSchema, states)).toBeGreaterThan(100);
  });

  it("takes what the writers write", () => {
    const environment = storeEnvironment();
    install(environment, "user", { id: "pdf" });
    installStaged(environment, "user", "pdf", stagePackage({ id: "pdf", version: "2.0.0" }), {
      keepPrevious: true,
    });
    install(environment, "user", { id: "other" });
    switchCopy(environment, "user", "other", false);
    const read = (path: string) => JSON.parse(readFileSync(path, "utf8"));
    const written = read(join(packagesDir(environment, "user"), "state.json"));
    expect(written.installed.pdf.previous).toBeDefined();
    expect(compare(fastState, stateSchema, [written])).toBe(1);
    expect(compare(fastLock, lockSchema, [read(lockFilePath(environment, "user"))])).toBe(1);
  });
});
