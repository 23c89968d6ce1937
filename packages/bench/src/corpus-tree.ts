import { execFileSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { parseFrontmatter } from "@skillshelf/core";
import { type Document, isCollection, parseDocument, visit } from "yaml";
import { BENCH_GIT_ENV } from "./installed.js";

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
  const sources = corpusSkillFolders();
  mkdirSync(dir, { recursive: true });
  for (let index = 0; index < count; index++) {
    const folder = join(dir, `skill-${index}`);
    cpSync(sources[index % sources.length] as string, folder, { recursive: true });
    // a copy answers to its folder's name, so none shadows another
    if (options.distinctNames === true) renameSkill(join(folder, "SKILL.md"), `skill-${index}`);
  }
  return treeOf(dir, count);
}

/**
 * Real skills of the corpus for suites to write: each under the name a suite gives it, its files,
 * sizes and the rest of its frontmatter as they are.
 */
export interface CorpusSkills {
  /** How many distinct real skills there are; indexes past it repeat them. */
  readonly count: number;
  /** Write the `index`th skill (taken in turn) into `folder` as skill `name`. */
  write(folder: string, name: string, index: number): void;
  /** What the first `skills` written hold, as a report states it: `N real skills (… files, … MB)`. */
  describe(skills: number): string;
}

/** The corpus's skills a plain install takes. */
export interface InstallableSkills extends CorpusSkills {
  /**
   * Those whose frontmatter the `yaml` package reads as well, holding no other skill: for suites
   * beside a `yaml` baseline.
   */
  readonly plain: CorpusSkills;
}

/**
 * The corpus's skills less those a plain install refuses (a name that is not one, a skill that
 * does not load, an audit finding at high): found once by one untimed install of every one,
 * each under a name of its own, through the built command line `bin` (an environment of its own
 * under `workDir`, removed after).
 */
export function installableSkills(workDir: string, bin: string): InstallableSkills {
  const sources = corpusSkillFolders();
  mkdirSync(workDir, { recursive: true });
  const trial = mkdtempSync(join(workDir, "installable-"));
  try {
    writeCorpusTree(join(trial, "skills"), sources.length, { distinctNames: true });
    const library = join(trial, "library");
    try {
      execFileSync(process.execPath, [bin, "install", trial, "--skill", "*", "--user", "--yes"], {
        cwd: trial,
        env: { ...BENCH_GIT_ENV, HOME: trial, SKILLSHELF_HOME: library },
        stdio: "ignore",
      });
    } catch {
      // what it refused is left out below
    }
    const lock = JSON.parse(readFileSync(join(library, "lock.json"), "utf8")) as {
      packages: Record<string, { source: { path?: string } }>;
    };
    // each copy's folder is named after its index among the sources
    const taken = new Set(
      Object.values(lock.packages).map((entry) => basename(entry.source.path ?? "")),
    );
    const installable = sources.filter((_, index) => taken.has(`skill-${index}`));
    if (installable.length === 0) throw new Error("bench: no corpus skill installs cleanly");
    // a skill holding another SKILL.md below it is read one way by each loader: left out too
    const plain = installable.filter(
      (folder) =>
        yamlReads(readFileSync(join(folder, "SKILL.md"), "utf8")) &&
        skillFolders(folder).length === 1,
    );
    return {
      ...corpusSkills(installable, "the corpus's skills a plain install takes"),
      plain: corpusSkills(
        plain,
        "those of the corpus a plain install takes and `yaml` reads, none holding another",
      ),
    };
  } finally {
    rmSync(trial, { recursive: true, force: true });
  }
}

/** The descriptions of the corpus's skills whose frontmatter reads (one line each), in a stable order. */
export function corpusDescriptions(): string[] {
  return corpusSkillFolders().flatMap((folder) => {
    const parsed = parseFrontmatter(readFileSync(join(folder, "SKILL.md"), "utf8"));
    const description = parsed.ok ? parsed.data.description : undefined;
    return typeof description === "string" && description.trim() !== ""
      ? [description.replace(/\s+/g, " ").trim()]
      : [];
  });
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

/**
 * Write `name` as the `name:` of a SKILL.md's frontmatter (its first such line), or add one to a
 * skill that answers to its folder's name: a fetch may stage it under another folder.
 */
function renameSkill(path: string, name: string): void {
  const text = readFileSync(path, "utf8");
  const end = text.startsWith("---") ? text.indexOf("\n---", 3) : -1;
  if (end === -1) return;
  const head = text.slice(0, end);
  const named = /^name:.*$/m.test(head)
    ? head.replace(/^name:.*$/m, `name: ${name}`)
    : head.replace(/^---(\r?\n)/, `---$1name: ${name}$1`);
  writeFileSync(path, named + text.slice(end));
}

/**
 * The corpus's prompt templates whose frontmatter, when they have one, the `yaml` package reads
 * (the baseline parses with it and stops at one it cannot), in a stable order.
 */
export function corpusPromptFiles(): string[] {
  const root = join(corpusDir(), "prompts");
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".md"))
    .sort()
    .map((path) => join(root, path))
    .filter((path) => yamlReads(readFileSync(path, "utf8")));
}

/**
 * Whether a file's frontmatter, when it has one, is one the `yaml` package reads quietly (the
 * baselines parse with it, and stop at one it throws on or warn at each read of one it frowns on).
 */
function yamlReads(text: string): boolean {
  // as the baselines cut it: after the first four characters, a CRLF file's `\r` kept
  const end = text.startsWith("---") ? text.indexOf("\n---", 4) : -1;
  if (end === -1) return true;
  const document = parseDocument(text.slice(4, end));
  return document.errors.length === 0 && document.warnings.length === 0 && safeJs(document);
}

/** `folders`, written in turn under new names; `what` says which they are in a report. */
function corpusSkills(folders: readonly string[], what: string): CorpusSkills {
  const sizes = folders.map((folder) => treeOf(folder, 1));
  return {
    count: folders.length,
    write(folder, name, index) {
      rmSync(folder, { recursive: true, force: true });
      cpSync(folders[index % folders.length] as string, folder, { recursive: true });
      renameSkill(join(folder, "SKILL.md"), name);
    },
    describe(skills) {
      let files = 0;
      let bytes = 0;
      for (let index = 0; index < skills; index++) {
        const size = sizes[index % sizes.length] as CorpusTree;
        files += size.files;
        bytes += size.bytes;
      }
      return `${skills} real skills (${what}, ${folders.length} of them, in turn under new names: ${files} files, ${(bytes / 1e6).toFixed(1)} MB)`;
    },
  };
}

/** Whether `document` turns into plain values quietly: no mapping key is itself a collection. */
function safeJs(document: Document): boolean {
  let quiet = true;
  visit(document, {
    Pair(_, pair) {
      if (isCollection(pair.key)) quiet = false;
    },
  });
  return quiet;
}

/** The shared corpus, as the test utilities hold it (the bench is bundled: found by package, not by file). */
function corpusDir(): string {
  return join(
    dirname(createRequire(import.meta.url).resolve("@skillshelf/test-utils/package.json")),
    "corpus",
  );
}

/** The corpus's skill folders, in a stable order. */
function corpusSkillFolders(): string[] {
  return skillFolders(join(corpusDir(), "skills"));
}

/** Every folder under `root` holding a SKILL.md, in a stable order. */
function skillFolders(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((path) => /(?:^|\/)SKILL\.md$/.test(path))
    .sort()
    .map((path) => dirname(join(root, path)));
}
