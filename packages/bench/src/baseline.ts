import { createHash } from "node:crypto";
import { closeSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { ResourceRoot } from "@skillshelf/skills-loader";
import { parse } from "yaml";

/** What the baseline keeps per skill: what a typical loader keeps, body included. */
export interface RawSkill {
  readonly name: string;
  readonly description: unknown;
  readonly path: string;
  readonly hash: string;
  readonly frontmatter: unknown;
  readonly body: string;
}

/**
 * The raw-parse baseline of DESIGN §9: a plain Node loop that walks each root (a folder with a
 * SKILL.md is a skill; dot-folders skipped), reads each file, hashes it with sha256 and parses its
 * frontmatter with the `yaml` package. Later roots override earlier ones by name. It checks
 * nothing else: no limits, no containment, no diagnostics.
 */
export function rawParse(roots: readonly ResourceRoot[]): Map<string, RawSkill> {
  const winners = new Map<string, RawSkill>();
  for (const root of roots) {
    for (const path of skillFiles(root.path)) {
      const bytes = readFileSync(path);
      const hash = createHash("sha256").update(bytes).digest("hex");
      const text = bytes.toString("utf8");
      const end = text.indexOf("\n---", 4);
      const frontmatter = end === -1 ? {} : parsedOrNone(text.slice(4, end));
      // a file whose YAML does not parse is left out, as any loop that must go on would
      if (frontmatter === undefined) continue;
      const name =
        typeof frontmatter.name === "string" ? frontmatter.name : basename(dirname(path));
      winners.set(name, {
        name,
        description: frontmatter.description,
        path,
        hash,
        frontmatter,
        body: text.slice(end + 5),
      });
    }
  }
  return winners;
}

/** The mapping `yaml` reads, `{}` for none, `undefined` when it does not parse. */
function parsedOrNone(yaml: string): Record<string, unknown> | undefined {
  try {
    return (parse(yaml) as Record<string, unknown> | null) ?? {};
  } catch {
    return undefined;
  }
}

/**
 * The prompt baseline: walk each root recursively, read each `.md` file and parse its
 * frontmatter, when it has one, with `yaml`; later roots override earlier ones by name. No
 * limits, recovery or diagnostics.
 */
export function rawPromptParse(
  roots: readonly ResourceRoot[],
): Map<string, { name: string; path: string; frontmatter: unknown; body: string }> {
  const winners = new Map<
    string,
    { name: string; path: string; frontmatter: unknown; body: string }
  >();
  for (const root of roots) {
    for (const path of markdownFiles(root.path)) {
      const text = readFileSync(path, "utf8");
      const end = text.startsWith("---\n") ? text.indexOf("\n---", 4) : -1;
      const frontmatter = end === -1 ? {} : parse(text.slice(4, end));
      const name = path.slice(root.path.length + 1, -3).replaceAll("/", ":");
      winners.set(name, { name, path, frontmatter, body: end === -1 ? text : text.slice(end + 5) });
    }
  }
  return winners;
}

/** The floor: walking and reading alone, no hashing or parsing. Returns the bytes read. */
export function walkAndRead(roots: readonly ResourceRoot[]): number {
  let bytes = 0;
  for (const root of roots)
    for (const path of skillFiles(root.path)) bytes += readFileSync(path).length;
  return bytes;
}

/**
 * The frontmatter-only floor: walking, and reading each file's first 4 KiB, then 4 KiB more at a
 * time until the closing `---` line has been read (or the file ends); no decoding past a search
 * for the fence, no hashing, no parsing. Returns the bytes read.
 */
export function walkAndReadFrontmatter(roots: readonly ResourceRoot[]): number {
  const block = Buffer.allocUnsafe(4096);
  let bytes = 0;
  for (const root of roots)
    for (const path of skillFiles(root.path)) {
      const fd = openSync(path, "r");
      try {
        let read = readSync(fd, block, 0, block.length, null);
        let head = block.subarray(0, read);
        while (read > 0 && head.indexOf("\n---", 3) === -1) {
          read = readSync(fd, block, 0, block.length, null);
          head = Buffer.concat([head, block.subarray(0, read)]);
        }
        bytes += head.length;
      } finally {
        closeSync(fd);
      }
    }
  return bytes;
}

// --- internal ---

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return markdownFiles(path);
      return entry.name.endsWith(".md") ? [path] : [];
    });
}

function skillFiles(dir: string): string[] {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  if (entries.some((entry) => entry.name === "SKILL.md" && entry.isFile()))
    return [join(dir, "SKILL.md")];
  return entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => skillFiles(join(dir, entry.name)));
}
