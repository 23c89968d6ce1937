import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
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

  describe("with a fake kind added to the tuple", () => {
    const workspace = mkdtempSync(join(tmpdir(), "skillshelf-kinds-"));
    afterAll(() => rmSync(workspace, { recursive: true, force: true }));

    it("every place keyed by the kinds fails to compile until it handles it, and nothing else does", () => {
      for (const name of ["tsconfig.base.json", "package.json"])
        cpSync(join(REPO, name), join(workspace, name));
      symlinkSync(join(REPO, "node_modules"), join(workspace, "node_modules"));
      for (const name of readdirSync(join(REPO, "packages"))) {
        const from = join(REPO, "packages", name);
        const to = join(workspace, "packages", name);
        for (const part of ["package.json", "tsconfig.json", "src"])
          cpSync(join(from, part), join(to, part), { recursive: true });
        // workspace links are relative (../../../core), so they point into the copy
        if (existsSync(join(from, "node_modules")))
          cpSync(join(from, "node_modules"), join(to, "node_modules"), {
            recursive: true,
            verbatimSymlinks: true,
          });
        writeFileSync(
          join(to, "tsconfig.json"),
          readFileSync(join(from, "tsconfig.json"), "utf8").replace(
            /"include": \[[^\]]*\]/,
            '"include": ["src"]',
          ),
        );
      }
      const kinds = join(workspace, KINDS_FILE);
      const text = readFileSync(kinds, "utf8");
      const widened = text
        .replace(
          'readonly ["skill", "prompt", "agent", "fleet"]',
          'readonly ["skill", "prompt", "agent", "fleet", "widget"]',
        )
        .replace('  "fleet",\n];', '  "fleet",\n  "widget",\n];');
      expect(widened).not.toBe(text);
      writeFileSync(kinds, widened);
      const tsc = join(REPO, "node_modules", ".bin", "tsc");
      // cli's program reaches every package's source through the "source" export condition
      const run = spawnSync(tsc, ["--noEmit", "-p", join(workspace, "packages", "cli")], {
        encoding: "utf8",
      });
      const errors = run.stdout.split("\n").filter((line) => /error TS\d+/.test(line));
      expect(
        errors.length,
        "a table keyed by the kinds would accept the new kind silently",
      ).toBeGreaterThan(0);
      const unrelated = errors.filter((line) => !/widget/.test(line));
      expect(unrelated, "an error unrelated to the new kind means something else broke").toEqual(
        [],
      );
    });
  });
});
