import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type PinnedRow, readIndex, writeIndexRows } from "@skillshelf/sources";
import { testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

const row = (name: string, overrides: Partial<PinnedRow> = {}): PinnedRow => ({
  kind: "skill",
  name,
  description: `The ${name} skill.`,
  version: "1.0.0",
  sourceUrl: `./skills/${name}`,
  sha256: "a".repeat(64),
  requires: [],
  ...overrides,
});

describe("writeIndexRows", () => {
  it("creates an index of the rows, which reads back as they were given", async () => {
    const path = join(testdir(), "library.yaml");
    expect(
      await writeIndexRows(path, [
        row("pdf"),
        row("kit", { kind: "plugin", requires: ["skill:pdf"] }),
      ]),
    ).toEqual(["added", "added"]);
    const read = readIndex(path);
    expect(read.diagnostics).toEqual([]);
    expect(
      read.rows.map(({ kind, name, version, requires }) => ({ kind, name, version, requires })),
    ).toEqual([
      { kind: "skill", name: "pdf", version: "1.0.0", requires: [] },
      { kind: "plugin", name: "kit", version: "1.0.0", requires: ["skill:pdf"] },
    ]);
  });

  it("updates a row in place, keeping its other fields, the other rows and every comment", async () => {
    const path = join(testdir(), "library.yaml");
    const before = [
      "# our index",
      "entries:",
      "  # the PDF skill",
      "  - kind: skill",
      "    name: pdf",
      "    description: Old words.",
      "    sourceUrl: ./old",
      "    version: 0.1.0",
      `    sha256: ${"b".repeat(64)}`,
      "    requires: [skill:gone]",
      "    category: documents # kept",
      "  - kind: prompt",
      "    name: other",
      "    description: Untouched.",
      "    sourceUrl: ./other",
      "    version: 2.0.0",
      `    sha256: ${"c".repeat(64)}`,
      "",
    ].join("\n");
    writeFileSync(path, before);
    expect(await writeIndexRows(path, [row("pdf")])).toEqual(["updated"]);
    const after = readFileSync(path, "utf8");
    expect(after).toContain("# our index\nentries:\n  # the PDF skill\n");
    expect(after).toContain("category: documents # kept");
    expect(after).not.toContain("skill:gone");
    expect(after).toContain(before.slice(before.indexOf("  - kind: prompt")));
    expect(readIndex(path).rows.find((one) => one.name === "pdf")).toMatchObject({
      version: "1.0.0",
      sha256: "a".repeat(64),
      sourceUrl: "./skills/pdf",
      category: "documents",
      requires: [],
    });
    expect(await writeIndexRows(path, [row("pdf")])).toEqual(["unchanged"]);
    expect(readFileSync(path, "utf8")).toBe(after);
  });

  it("writes a JSON index as JSON", async () => {
    const path = join(testdir(), "library.json");
    writeFileSync(path, JSON.stringify([row("pdf", { version: "0.9.0" })]));
    expect(await writeIndexRows(path, [row("pdf"), row("deploy")])).toEqual(["updated", "added"]);
    expect(readIndex(path).rows.map((one) => [one.name, one.version])).toEqual([
      ["pdf", "1.0.0"],
      ["deploy", "1.0.0"],
    ]);
    const written = readFileSync(path, "utf8");
    expect(await writeIndexRows(path, [row("deploy")])).toEqual(["unchanged"]);
    expect(readFileSync(path, "utf8")).toBe(written);
  });

  it.each([
    ["marketplace.json", JSON.stringify({ name: "m", plugins: [] }), "index_not_writable"],
    ["library.yaml", "entries: [unclosed\n", "index_invalid"],
    ["library.yaml", "just: a mapping\n", "index_invalid"],
  ])("refuses %s holding %j with %s, leaving it as it was", async (name, text, code) => {
    const path = join(testdir(), name);
    writeFileSync(path, text);
    await expect(writeIndexRows(path, [row("pdf")])).rejects.toMatchObject({ code, path });
    expect(readFileSync(path, "utf8")).toBe(text);
  });
});
