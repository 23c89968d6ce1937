import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "./_scratch.js";

const KINDS_FILE = join("packages", "core", "src", "kinds.ts");
const WORDS = ["skill", "prompt", "agent", "fleet", "plugin"];
// a literal naming two or more kinds: a list, a union, or a regex alternation restating the tuple
const LITERAL = new RegExp(`["'\`](${WORDS.join("|")})s?["'\`]`, "g");
// a line that names kinds for a reason of its own (a default, another format) says why after this
const MARKER = "kinds: ";

function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts")) files.push(path);
    }
  };
  for (const name of readdirSync(join(REPO, "packages")))
    if (name !== "bench" && name !== "test-utils") walk(join(REPO, "packages", name, "src"));
  return files;
}

describe("the kinds are defined once (core's RESOURCE_KINDS and PACKAGE_KINDS)", () => {
  it("are restated nowhere else: no list, union or pattern names two kinds", () => {
    const restated: string[] = [];
    for (const file of sourceFiles()) {
      if (relative(REPO, file) === KINDS_FILE) continue;
      const lines = readFileSync(file, "utf8").split("\n");
      lines.forEach((line, index) => {
        if (line.trimStart().startsWith("//") || line.trimStart().startsWith("*")) return;
        if ((lines[index - 1] ?? "").includes(MARKER) || line.includes(MARKER)) return;
        const named = new Set([...line.matchAll(LITERAL)].map((match) => match[1]));
        if (named.size >= 2) restated.push(`${relative(REPO, file)}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(restated).toEqual([]);
  });
});
