import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadPromptTemplates } from "@skillshelf/prompts-loader";
import { CORPUS_DIR, corpusFiles } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

function loadOne(path: string) {
  const file = join(CORPUS_DIR, path);
  const root = {
    path: dirname(file),
    scope: "user" as const,
    source: "skillshelf",
    origin: "user",
    precedence: 30,
    trust: "trusted" as const,
  };
  const result = loadPromptTemplates({
    cwd: "/nonexistent",
    home: "/nonexistent",
    env: {},
    roots: [root],
  });
  const template = result.items.find((item) => item.path === file);
  return {
    template,
    diagnostics: result.diagnostics.filter((diagnostic) => diagnostic.path === file),
  };
}

/** The raw text after `key:` on a top-level frontmatter line, as an author wrote it. */
function writtenValue(path: string, key: string): string | undefined {
  const text = readFileSync(join(CORPUS_DIR, path), "utf8");
  const line = text.split(/\r?\n/).find((candidate) => candidate.startsWith(`${key}:`));
  return (
    line
      ?.slice(key.length + 1)
      .trim()
      .replace(/^(["'])(.*)\1$/, "$2") || undefined
  );
}

describe("every prompt template of the corpus", () => {
  const prompts = corpusFiles("prompt");

  it("is in the manifest", () => {
    expect(prompts.length).toBeGreaterThan(100);
  });

  it.each(prompts.map((file) => [file.path, file] as const))("%s", (path, file) => {
    const { template, diagnostics } = loadOne(path);
    expect(template, "every template loads").toBeDefined();
    if (template === undefined) return;
    expect(template.unavailable).toBeUndefined();
    expect(template.description.length).toBeGreaterThan(0);
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === "error")).toEqual([]);
    if (file.odd.includes("yaml-error")) {
      // broken frontmatter loads with a warning and keeps what the author wrote
      expect(
        diagnostics
          .map((diagnostic) => diagnostic.code)
          .some((code) => code === "frontmatter_recovered" || code === "frontmatter_invalid"),
      ).toBe(true);
      for (const [key, field] of [
        ["description", "description"],
        ["argument-hint", "argumentHint"],
      ] as const) {
        const written = writtenValue(path, key);
        if (written !== undefined) expect(template[field]).toBe(written);
      }
    }
    if (file.odd.includes("no-frontmatter")) expect(template.content.length).toBeGreaterThan(0);
    if (file.odd.includes("argument-hint"))
      expect(template.argumentHint).toBe(writtenValue(path, "argument-hint"));
  });
});
