import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CODES, type CodeOwner, createDiagnostic, isCode } from "@skillshelf/core";
import { describe, expect, it } from "vitest";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const TABLE = join(REPO, "docs", "codes.md");

/** docs/codes.md as the catalogue gives it: one table per owning package, codes in order. */
function renderCodes(): string {
  const owners = new Map<CodeOwner, string[]>();
  for (const [code, entry] of Object.entries(CODES).sort(([a], [b]) => (a < b ? -1 : 1)))
    owners.set(entry.owner, [
      ...(owners.get(entry.owner) ?? []),
      `| \`${code}\` | ${[entry.hint, ...(entry.hintWith === undefined ? [] : [`with its details: ${entry.hintWith}`])].join("; ").replaceAll("|", "\\|")} |`,
    ]);
  const sections = [...owners].map(
    ([owner, rows]) =>
      `## ${owner}\n\n| code | what to do next (default hint) |\n|---|---|\n${rows.join("\n")}\n`,
  );
  return [
    "# Diagnostic and error codes",
    "",
    "Every `code` a Skillshelf diagnostic or error carries, by the package that produces it, with",
    "the hint it carries (filled from the finding's details where the catalogue has a form with",
    "`{placeholders}` and the details name them all). Generated from `CODES` in",
    "`packages/core/src/codes.ts`; a test fails when this file differs (run",
    "`UPDATE_CODES=1 pnpm vitest run packages/core/test/codes.test.ts` to rewrite it).",
    "",
    ...sections,
  ].join("\n");
}

/** The TypeScript source of each published package, but the catalogue itself. */
function sourceTexts(): Map<string, string> {
  const packages = join(REPO, "packages");
  const texts = new Map<string, string>();
  const walk = (dir: string, into: string[]) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, into);
      else if (entry.name.endsWith(".ts") && !entry.name.startsWith("_codes-"))
        into.push(readFileSync(path, "utf8"));
    }
  };
  for (const name of readdirSync(packages)) {
    if (name === "bench" || name === "test-utils") continue;
    const files: string[] = [];
    walk(join(packages, name, "src"), files);
    texts.set(name, files.join("\n"));
  }
  return texts;
}

describe("the code catalogue", () => {
  it("is documented in docs/codes.md, exactly as generated", () => {
    const rendered = renderCodes();
    if (process.env.UPDATE_CODES === "1") writeFileSync(TABLE, rendered);
    expect(readFileSync(TABLE, "utf8")).toBe(rendered);
  });

  it("holds only codes some package produces", () => {
    const text = [...sourceTexts().values()].join("\n");
    const unused = Object.keys(CODES).filter((code) => !text.includes(`"${code}"`));
    expect(unused).toEqual([]);
  });

  it("names as owner a package that produces the code", () => {
    const texts = sourceTexts();
    const misowned = Object.entries(CODES)
      .filter(([code, entry]) => !texts.get(entry.owner)?.includes(`"${code}"`))
      .map(([code, entry]) => `${code} (${entry.owner})`);
    expect(misowned).toEqual([]);
  });

  it("is the only place hints are written: no call site passes one of its own", () => {
    const written = [...sourceTexts()].flatMap(([file, text]) =>
      text
        .split("\n")
        .filter((line) => /\bhint:\s*["'`]/.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(written).toEqual([]);
  });

  it("gives every code an owner and a hint that says what to do", () => {
    for (const [code, entry] of Object.entries(CODES)) {
      expect(code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(entry.hint.length, code).toBeGreaterThan(10);
      expect(entry.hint.endsWith("."), code).toBe(false);
    }
  });

  it("tells codes from other text", () => {
    expect(isCode("symlink_escape")).toBe(true);
    expect(isCode("symlink_escaped")).toBe(false);
    expect(isCode("constructor")).toBe(false);
  });
});

describe("a hint with placeholders", () => {
  it("is filled from the finding's details when they name every placeholder, else the plain hint", () => {
    const found = createDiagnostic("error", "usage_unknown_command", "x", {
      details: { suggestion: "list" },
    });
    expect(found.hint).toBe("did you mean skillshelf list?");
    const none = createDiagnostic("error", "usage_unknown_command", "x", {
      details: { suggestion: undefined },
    });
    expect(none.hint).toBe(CODES.usage_unknown_command.hint);
    expect(
      createDiagnostic("warning", "frontmatter_recovered", "x", { details: { keys: ["a", "b"] } })
        .hint,
    ).toBe("quote the value of a, b to make the frontmatter valid YAML");
  });
});
