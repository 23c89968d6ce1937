import type { IndexRow } from "@skillshelf/sources";
import { resolveRequirements, searchIndexRows } from "@skillshelf/sources";
import { describe, expect, it } from "vitest";

function row(
  kind: IndexRow["kind"],
  name: string,
  requires: string[] = [],
  extra: Partial<IndexRow> = {},
): IndexRow {
  return {
    kind,
    name,
    description: `The ${name} package`,
    version: "1.0.0",
    sha256: undefined,
    sourceUrl: `./${name}`,
    source: { type: "local", path: `/p/${name}` },
    requires,
    format: "skillshelf",
    index: "/i/library.yaml",
    catalog: "/i/library.yaml",
    origin: "user",
    ...extra,
  };
}

const names = (rows: readonly IndexRow[]) => rows.map((r) => `${r.kind}:${r.name}`);

describe("resolveRequirements", () => {
  it("orders the closure dependencies first, each once", () => {
    const rows = [
      row("plugin", "app", ["skill:pdf", "plugin:base"]),
      row("skill", "pdf", ["plugin:base"]),
      row("plugin", "base"),
    ];
    const resolution = resolveRequirements({ rows, refs: ["plugin:app"] });
    expect(names(resolution.order)).toEqual(["plugin:base", "skill:pdf", "plugin:app"]);
    expect(resolution).toMatchObject({
      missing: [],
      cycles: [],
      notLoadable: [],
      satisfied: [],
      malformed: [],
    });
  });

  it("stops at refs a loadable copy meets and reports installed copies that are not loadable", () => {
    const rows = [
      row("plugin", "app", ["skill:pdf", "plugin:base"]),
      row("skill", "pdf"),
      row("plugin", "base", ["skill:deep"]),
    ];
    const installed = (ref: string) =>
      ref === "plugin:base" ? "loadable" : ref === "skill:pdf" ? "not_loadable" : undefined;
    const resolution = resolveRequirements({ rows, refs: ["plugin:app"], installed });
    expect(names(resolution.order)).toEqual(["skill:pdf", "plugin:app"]);
    expect(resolution.satisfied).toEqual(["plugin:base"]);
    expect(resolution.notLoadable).toEqual([{ ref: "skill:pdf", requiredBy: "plugin:app" }]);
  });

  it("names missing refs with what needed them, and cycles with their path", () => {
    const rows = [
      row("plugin", "a", ["plugin:b", "skill:gone"]),
      row("plugin", "b", ["plugin:c"]),
      row("plugin", "c", ["plugin:a"]),
    ];
    const resolution = resolveRequirements({
      rows,
      refs: ["plugin:a", "nonsense", "plugin:nowhere"],
    });
    expect(resolution.missing).toEqual([
      { ref: "skill:gone", requiredBy: "plugin:a" },
      { ref: "plugin:nowhere", requiredBy: undefined },
    ]);
    expect(resolution.cycles).toEqual([["plugin:a", "plugin:b", "plugin:c", "plugin:a"]]);
    expect(resolution.malformed).toEqual(["nonsense"]);
  });

  it("matches refs by kind as well as name", () => {
    const resolution = resolveRequirements({ rows: [row("plugin", "pdf")], refs: ["skill:pdf"] });
    expect(resolution.missing).toEqual([{ ref: "skill:pdf", requiredBy: undefined }]);
  });
});

describe("searchIndexRows", () => {
  const rows = [
    row("skill", "pdf-forms", [], {
      description: "Fill and sign PDF forms",
      triggers: ["acroform"],
    }),
    row("plugin", "office", [], {
      description: "Office documents",
      provides: [{ kind: "skill", name: "xlsx", description: "Spreadsheets" }],
    }),
    row("prompt", "digital-review", [], { description: "Review a digital transformation plan" }),
  ];

  it.each<[string, string | undefined, string[], string | null]>([
    ["pdf forms", undefined, ["skill:pdf-forms"], "all"],
    ["acro", undefined, ["skill:pdf-forms"], "all"],
    ["spreadsheets", undefined, ["plugin:office"], "all"],
    ["spreadsheets pdf", undefined, ["skill:pdf-forms", "plugin:office"], "any"],
    ["git", undefined, [], "any"],
    ["xlsx", "skill", ["plugin:office"], "all"],
    ["review", "skill", [], "any"],
    ["  ", undefined, ["skill:pdf-forms", "plugin:office", "prompt:digital-review"], null],
  ])("%s (kind %s)", (query, kind, expected, mode) => {
    const result = searchIndexRows(rows, query, { kind: kind as IndexRow["kind"] | undefined });
    expect({ rows: names(result.rows), mode: result.matchMode }).toEqual({ rows: expected, mode });
  });
});

describe("searchIndexRows ranking", () => {
  const rows = [
    row("skill", "changelog", [], { description: "Write release notes from git history" }),
    row("skill", "release-notes-helper", [], { description: "Drafts notes" }),
    row("skill", "notes", [], { description: "Plain notes" }),
    row("skill", "release", [], { description: "Cut a release", triggers: ["notes"] }),
  ];

  it("puts a name that is the query first, then names holding it, then description hits", () => {
    const result = searchIndexRows(rows, "release notes");
    expect(names(result.rows)).toEqual([
      "skill:release-notes-helper",
      "skill:release",
      "skill:changelog",
    ]);
    expect(names(searchIndexRows(rows, "notes").rows)).toEqual([
      "skill:notes",
      "skill:release-notes-helper",
      "skill:changelog",
      "skill:release",
    ]);
  });
});
