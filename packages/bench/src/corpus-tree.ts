import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** What a tree of real skills holds, for a bench to state beside its figures. */
export interface CorpusTree {
  readonly skills: number;
  readonly files: number;
  readonly bytes: number;
}

/**
 * Write `count` skill folders under `dir`, each a copy of one of the corpus's real skills (its
 * files, sizes and frontmatter as they are), taken in turn and repeated under new folder names
 * until there are `count`.
 */
export function writeCorpusTree(
  dir: string,
  count: number,
  options: { readonly distinctNames?: boolean } = {},
): CorpusTree {
  const sources = skillFolders(join(corpusDir(), "skills"));
  mkdirSync(dir, { recursive: true });
  for (let index = 0; index < count; index++) {
    const folder = join(dir, `skill-${index}`);
    cpSync(sources[index % sources.length] as string, folder, { recursive: true });
    // a copy answers to its folder's name, so none shadows another
    if (options.distinctNames === true) renameSkill(join(folder, "SKILL.md"), `skill-${index}`);
  }
  return treeOf(dir, count);
}

/** What the tree of `skills` skill folders under `dir` holds. */
export function treeOf(dir: string, skills: number): CorpusTree {
  let files = 0;
  let bytes = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const stats = statSync(join(dir, name));
    if (!stats.isFile()) continue;
    files += 1;
    bytes += stats.size;
  }
  return { skills, files, bytes };
}

// --- internal ---

/** Write `name` as the `name:` of a SKILL.md's frontmatter (the first such line). */
function renameSkill(path: string, name: string): void {
  const text = readFileSync(path, "utf8");
  writeFileSync(path, text.replace(/^name:.*$/m, `name: ${name}`));
}

/** The shared corpus, as the test utilities hold it (the bench is bundled: found by package, not by file). */
function corpusDir(): string {
  return join(
    dirname(createRequire(import.meta.url).resolve("@skillshelf/test-utils/package.json")),
    "corpus",
  );
}

/** Every folder of the corpus holding a SKILL.md, in a stable order. */
function skillFolders(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((path) => /(?:^|\/)SKILL\.md$/.test(path))
    .sort()
    .map((path) => dirname(join(root, path)));
}
