import { boundedList, classifyOrigin, parseResourceKey, resourceKey } from "@skillshelf/inventory";
import type { IndexRow } from "@skillshelf/sources";
import type { InstallRecord } from "@skillshelf/store";
import { describe, expect, it } from "vitest";

const record = (extra: Partial<InstallRecord>): InstallRecord => ({
  kind: "plugin",
  format: "skillshelf",
  installedAt: "2026-01-01T00:00:00.000Z",
  origin: { source: { type: "local", path: "/src/pdf" } },
  contentDigest: "a".repeat(64),
  trust: "trusted",
  ...extra,
});

describe("resource keys", () => {
  it.each([
    [
      "skill",
      "pdf",
      "project",
      "/p/.skillshelf/skills/pdf/SKILL.md",
      "skill:pdf@project#.skillshelf/skills/pdf/SKILL.md",
    ],
    [
      "prompt",
      "git:commit",
      "user",
      "/h/.config/skillshelf/prompts/git/commit.md",
      "prompt:git:commit@user#prompts/git/commit.md",
    ],
    [
      "skill",
      "x",
      "package:user:kit",
      "/h/.config/skillshelf/packages/kit/skills/x/SKILL.md",
      "skill:x@package:user:kit#skills/x/SKILL.md",
    ],
    ["agent", "a", "explicit", "/elsewhere/a.md", "agent:a@explicit#a.md"],
  ] as const)("%s %s under %s round-trips", (kind, name, sourceId, path, key) => {
    const anchors = ["/h/.config/skillshelf/packages/kit", "/h/.config/skillshelf", "/p", "/h"];
    const made = resourceKey({ kind, name, sourceId, path }, anchors);
    expect(made).toBe(key);
    expect(parseResourceKey(made)).toEqual({
      kind,
      name,
      sourceId,
      relativePath: made.split("#")[1],
    });
  });

  it("keeps two same-name files under one root distinct, and names every file with no path", () => {
    const a = resourceKey({ kind: "skill", name: "x", sourceId: "user", path: "/h/s/a/SKILL.md" }, [
      "/h",
    ]);
    const b = resourceKey({ kind: "skill", name: "x", sourceId: "user", path: "/h/s/b/SKILL.md" }, [
      "/h",
    ]);
    expect(a).not.toBe(b);
    expect(parseResourceKey("skill:x@user")).toEqual({
      kind: "skill",
      name: "x",
      sourceId: "user",
    });
  });

  it.each(["plugin:x@user#a", "skill@user", "skill:x", "skill:@user", "skill:x@"])(
    "refuses %s",
    (key) => expect(parseResourceKey(key)).toBeUndefined(),
  );
});

describe("classifyOrigin decides from evidence only", () => {
  it("reads rows, records and roots", () => {
    const row = {
      index: "/i/library.yaml",
      source: { type: "git", url: "https://x/r.git" },
      format: "skillshelf",
    } as unknown as IndexRow;
    expect(classifyOrigin({ kind: "row", row })).toEqual({
      origin: { kind: "index", index: "/i/library.yaml", source: "git" },
      format: "skillshelf",
    });
    expect(classifyOrigin({ kind: "record", record: record({}) }).origin).toEqual({
      kind: "local",
      path: "/src/pdf",
    });
    expect(
      classifyOrigin({
        kind: "record",
        record: record({
          origin: { source: { type: "git", url: "u", ref: "v1" }, commit: "b".repeat(40) },
        }),
      }).origin,
    ).toEqual({ kind: "git", url: "u", ref: "v1", commit: "b".repeat(40) });
    expect(
      classifyOrigin({
        kind: "record",
        record: record({ format: "claude-code", trust: "foreign" }),
      }),
    ).toEqual({ origin: { kind: "import", path: "/src/pdf" }, format: "claude-code" });
    expect(
      classifyOrigin({
        kind: "record",
        record: record({ origin: { source: { type: "archive", url: "https://a" }, index: "/i" } }),
      }).origin,
    ).toEqual({ kind: "index", index: "/i", source: "archive" });
    expect(
      classifyOrigin({ kind: "root", root: { path: "/h/.codex/skills", source: "codex" } }),
    ).toEqual({
      origin: { kind: "loose", root: "/h/.codex/skills" },
      format: "codex",
    });
    expect(
      classifyOrigin({
        kind: "root",
        root: { path: "/p/.skillshelf/skills", source: "skillshelf" },
      }).format,
    ).toBe("skillshelf");
  });
});

describe("the bounded list", () => {
  it("refuses rows past its cap and says so", () => {
    const list = boundedList<number>(2);
    expect([list.push(1), list.push(2), list.push(3)]).toEqual([true, true, false]);
    expect(list.items).toEqual([1, 2]);
    expect(list.truncated).toBe(true);
  });
});
