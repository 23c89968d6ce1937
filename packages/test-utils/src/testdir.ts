import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, onTestFinished } from "vitest";

/** A symbolic link to create in a `testdir` tree; `target` is written as given (relative or absolute). */
export interface LinkSpec {
  readonly symlink: string;
}

/** A file with explicit bytes or mode. */
export interface FileSpec {
  readonly content: string | Uint8Array;
  readonly mode?: number;
}

/** A tree entry: text, bytes, a file with a mode, a link, or `null` for an empty folder. */
export type TreeEntry = string | Uint8Array | FileSpec | LinkSpec | null;

/** Relative path (with `/`) to entry. */
export type Tree = Readonly<Record<string, TreeEntry>>;

/** A link entry for a `testdir` tree. */
export function link(target: string): LinkSpec {
  return { symlink: target };
}

/**
 * Write `tree` into a fresh temporary folder and return its real path. The folder is removed when
 * the current test finishes, or, made while a suite is being collected, when that suite (or file)
 * finishes (set `SKILLSHELF_KEEP_TESTDIRS=1` to keep it for debugging); outside vitest, the
 * caller removes it.
 */
export function testdir(tree: Tree = {}): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "skillshelf-test-")));
  writeTree(root, tree);
  const remove = () => {
    if (process.env.SKILLSHELF_KEEP_TESTDIRS !== "1")
      rmSync(root, { recursive: true, force: true });
  };
  try {
    onTestFinished(remove);
  } catch {
    try {
      afterAll(remove);
    } catch {
      // not under vitest (for example a benchmark): the caller cleans up
    }
  }
  return root;
}

/** Write `tree` under an existing folder, creating parent folders as needed. */
export function writeTree(root: string, tree: Tree): void {
  for (const [relative, entry] of Object.entries(tree)) {
    const path = join(root, relative);
    mkdirSync(dirname(path), { recursive: true });
    if (entry === null) {
      mkdirSync(path, { recursive: true });
    } else if (typeof entry === "string" || entry instanceof Uint8Array) {
      writeFileSync(path, entry);
    } else if ("symlink" in entry) {
      symlinkSync(entry.symlink, path);
    } else {
      writeFileSync(path, entry.content);
      if (entry.mode !== undefined) chmodSync(path, entry.mode);
    }
  }
}
