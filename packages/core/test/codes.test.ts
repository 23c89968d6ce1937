import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CODES, type CodeOwner, isCode } from "@skillshelf/core";
import { describe, expect, it } from "vitest";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const TABLE = join(REPO, "docs", "codes.md");

/** docs/codes.md as the catalogue gives it: one table per owning package, codes in order. */
function renderCodes(): string {
  const owners = new Map<CodeOwner, string[]>();
  for (const [code, entry] of Object.entries(CODES).sort(([a], [b]) => (a < b ? -1 : 1)))
    owners.set(entry.owner, [
      ...(owners.get(entry.owner) ?? []),
      `| \`${code}\` | ${entry.hint.replaceAll("|", "\\|")} |`,
    ]);
  const sections = [...owners].map(
    ([owner, rows]) =>
      `## ${owner}\n\n| code | what to do next (default hint) |\n|---|---|\n${rows.join("\n")}\n`,
  );
  return [
    "# Diagnostic and error codes",
    "",
    "Every `code` a Skillshelf diagnostic or error carries, by the package that produces it, with",
    "the hint it carries unless a more precise one is given. Generated from `CODES` in",
    "`packages/core/src/codes.ts`; a test fails when this file differs (run",
    "`UPDATE_CODES=1 pnpm vitest run packages/core/test/codes.test.ts` to rewrite it).",
    "",
    ...sections,
  ].join("\n");
}

/** Every TypeScript source file of the published packages, but the catalogue itself. */
function sourceText(): string {
  const packages = join(REPO, "packages");
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.startsWith("_codes-"))
        texts.push(readFileSync(path, "utf8"));
    }
  };
  for (const name of readdirSync(packages))
    if (name !== "bench" && name !== "test-utils") walk(join(packages, name, "src"));
  return texts.join("\n");
}

describe("the code catalogue", () => {
  it("is documented in docs/codes.md, exactly as generated", () => {
    const rendered = renderCodes();
    if (process.env.UPDATE_CODES === "1") writeFileSync(TABLE, rendered);
    expect(readFileSync(TABLE, "utf8")).toBe(rendered);
  });

  it("holds only codes some package produces", () => {
    const text = sourceText();
    const unused = Object.keys(CODES).filter((code) => !text.includes(`"${code}"`));
    expect(unused).toEqual([]);
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
