import { existsSync, readdirSync, type Stats, statSync } from "node:fs";
import { basename, sep } from "node:path";
import { anchorRoot, followLink, readFailed } from "./_links.js";
import { isInside, realpathOrUndefined } from "./containment.js";
import { compareText, createDiagnostic } from "./diagnostics.js";
import { type FolderEntry, type FolderListings, listSorted } from "./folder-listings.js";
import type { ResourceRoot } from "./roots.js";
import type { Diagnostic } from "./types.js";

/** Folders below a root a recursive walk descends into at most. */
export const MAX_WALK_DEPTH = 12;

/** A folder the walk is in. */
export interface WalkedFolder {
  /** As discovered, under the root. */
  readonly path: string;
  /** Every symlink resolved; inside the root's anchor. */
  readonly real: string;
  readonly name: string;
  /** 0 for the root. */
  readonly depth: number;
  /** Relative to the root, with `/` separators and a trailing `/` ("" for the root). */
  readonly relativePath: string;
}

/** A file the walk found: a regular file, or a symlink to one inside the anchor. */
export interface WalkedFile {
  readonly path: string;
  readonly real: string;
  readonly name: string;
  /** The folder holding it; `undefined` when the root itself is this file. */
  readonly folder: WalkedFolder | undefined;
  /** Relative to the root, with `/` separators (the file name for a file root). */
  readonly relativePath: string;
}

/** The walk as its hooks see it: its findings, and the one way to follow a link. */
export interface RootWalk {
  readonly diagnostics: Diagnostic[];
  /** Follow a symlink within the root's anchor; a refused, dangling or looping one is reported and gives `undefined`. */
  readonly follow: (path: string) => { kind: "file" | "dir" | "other"; real: string } | undefined;
}

/** What a walk does at each step; only `file` is required. */
export interface RootWalker {
  /** Folders below the root to enter at most: 0 for the top level only. */
  readonly maxDepth: number;
  /**
   * Before a folder (the root too) is listed; return true when it is complete and needs no
   * listing. `list` lists it (from `listings` when kept) for a hook that would rather look at its
   * entries than ask for a name; the walk then uses that listing.
   */
  readonly enter?: (
    folder: WalkedFolder,
    walk: RootWalk,
    list: () => readonly FolderEntry[],
  ) => boolean;
  /** With a folder's entries, sorted by name, before any is visited; return true to visit none. */
  readonly listed?: (
    folder: WalkedFolder,
    entries: readonly FolderEntry[],
    walk: RootWalk,
  ) => boolean;
  /** Each file in a visited folder, and the root itself when it is a file. */
  readonly file: (file: WalkedFile, walk: RootWalk) => void;
  /** Listings kept from earlier walks (a cache's), used while each folder is unchanged. */
  readonly listings?: FolderListings | undefined;
}

/** What a walk found besides what its hooks kept. */
export interface RootWalkResult {
  readonly diagnostics: Diagnostic[];
  /** The root's real path, once it is known to exist. */
  readonly rootReal: string | undefined;
  /** Whether any symlink was followed: only then can two found files be one file. */
  readonly followedLinks: boolean;
}

/**
 * Walk one resource root — the one walker every loader uses, so the containment rule is written
 * once: the root is anchored (`anchorRoot`: a missing root yields nothing and no diagnostic, one
 * leading outside its containment is refused), names starting with `.` and `node_modules` are
 * skipped, a symlink is followed only when its target stays inside the anchor (`followLink`), a
 * folder already entered through a link or a link back up is not entered again, and a recursive
 * walk stops `maxDepth` folders down (an info `walk_depth_limit`). Folders are visited in name
 * order; the hooks decide what is kept.
 */
export function walkRoot(
  root: Pick<ResourceRoot, "path" | "scope" | "containment" | "linkTargets" | "dotFolders">,
  walker: RootWalker,
): RootWalkResult {
  const diagnostics: Diagnostic[] = [];
  const result = { diagnostics, rootReal: undefined as string | undefined, followedLinks: false };
  const anchored = anchorRoot(root);
  if (anchored.status === "missing") return result;
  result.rootReal = anchored.real;
  if (anchored.status === "refused") {
    diagnostics.push(anchored.diagnostic);
    return result;
  }
  const linkTargets = (root.linkTargets ?? []).flatMap(
    (folder) => realpathOrUndefined(folder) ?? [],
  );
  const walk: RootWalk = {
    diagnostics,
    follow: (path) => {
      const target = followLink(path, anchored.anchor, linkTargets);
      if (!target.ok) {
        diagnostics.push(target.diagnostic);
        return undefined;
      }
      result.followedLinks = true;
      return target;
    },
  };
  let stats: Stats;
  try {
    stats = statSync(anchored.real);
  } catch (error) {
    diagnostics.push(readFailed(root.path, error));
    return result;
  }
  const name = basename(root.path);
  if (stats.isFile())
    walker.file(
      { path: root.path, real: anchored.real, name, folder: undefined, relativePath: name },
      walk,
    );
  else if (stats.isDirectory())
    visit(walker, walk, new Set(root.dotFolders ?? []), new Set(), {
      path: root.path,
      real: anchored.real,
      name,
      depth: 0,
      relativePath: "",
    });
  return result;
}

// --- internal ---

function visit(
  walker: RootWalker,
  walk: RootWalk,
  dotFolders: ReadonlySet<string>,
  linkedDirs: Set<string>,
  folder: WalkedFolder,
): void {
  let listed: readonly FolderEntry[] | undefined;
  const list = () =>
    (listed ??=
      walker.listings === undefined ? listSorted(folder.path) : walker.listings.list(folder.real));
  if (walker.enter?.(folder, walk, list) === true) return;
  let entries: readonly FolderEntry[];
  try {
    entries = list();
  } catch (error) {
    walk.diagnostics.push(readFailed(folder.path, error));
    return;
  }
  if (walker.listed?.(folder, entries, walk) === true) return;
  let stoppedDeeper = false;
  for (const entry of entries) {
    const name = entry.name;
    if (name === "node_modules") continue;
    if (name.startsWith(".") && !(folder.depth === 0 && dotFolders.has(name))) {
      if (folder.depth === 0 && entry.isDirectory() && holdsSkills(`${folder.path}${sep}${name}`))
        walk.diagnostics.push(
          createDiagnostic(
            "info",
            "dot_folder_skipped",
            `${name} is not read: a folder whose name starts with . is skipped unless the root names it`,
            { path: `${folder.path}${sep}${name}` },
          ),
        );
      continue;
    }
    const path = `${folder.path}${sep}${name}`;
    let kind: "file" | "dir" | "other" = entry.isFile()
      ? "file"
      : entry.isDirectory()
        ? "dir"
        : "other";
    let real = `${folder.real}${sep}${name}`;
    if (entry.isSymbolicLink()) {
      const target = walk.follow(path);
      if (target === undefined) continue;
      ({ kind, real } = target);
      // a link back to a folder above is a loop; a folder already entered through a link is done
      if (kind === "dir" && (isInside(real, folder.real) || linkedDirs.has(real))) continue;
      if (kind === "dir") linkedDirs.add(real);
    }
    if (kind === "file")
      walker.file(
        { path, real, name, folder, relativePath: `${folder.relativePath}${name}` },
        walk,
      );
    else if (kind === "dir" && folder.depth < walker.maxDepth)
      visit(walker, walk, dotFolders, linkedDirs, {
        path,
        real,
        name,
        depth: folder.depth + 1,
        relativePath: `${folder.relativePath}${name}/`,
      });
    else if (kind === "dir" && walker.maxDepth > 0) stoppedDeeper = true;
  }
  if (stoppedDeeper)
    walk.diagnostics.push(
      createDiagnostic(
        "info",
        "walk_depth_limit",
        `stopped looking ${walker.maxDepth} folders deep`,
        { path: folder.path },
      ),
    );
}

/** True when a skipped folder holds a `SKILL.md`, itself or one folder down: worth a word. */
function holdsSkills(dir: string): boolean {
  try {
    return readdirSync(dir, { withFileTypes: true }).some(
      (entry) =>
        entry.name === "SKILL.md" ||
        (entry.isDirectory() && existsSync(`${dir}${sep}${entry.name}${sep}SKILL.md`)),
    );
  } catch {
    return false;
  }
}

/** A markdown file found under a root. */
export interface MarkdownFile {
  /** As discovered, under the root. */
  readonly path: string;
  /** Every symlink resolved; inside the root's anchor. */
  readonly realPath: string;
  /** Relative to the root, with `/` separators, `.md` included (the file name for a file root). */
  readonly relativePath: string;
}

/** What a markdown walk found, and whether two of its files could be one file. */
export interface MarkdownWalk extends RootWalkResult {
  readonly files: MarkdownFile[];
}

/**
 * Find the `*.md` files under a root (see `walkRoot`), sorted by relative path: only its top
 * level, or every level down to `MAX_WALK_DEPTH` with `recursive`. A file root is that file.
 */
export function findMarkdownFiles(
  root: Pick<ResourceRoot, "path" | "scope" | "containment" | "linkTargets" | "dotFolders">,
  options: { readonly recursive: boolean },
): MarkdownWalk {
  const files: MarkdownFile[] = [];
  const walked = walkRoot(root, {
    maxDepth: options.recursive ? MAX_WALK_DEPTH : 0,
    file: (file) => {
      if (file.folder === undefined || file.name.toLowerCase().endsWith(".md"))
        files.push({ path: file.path, realPath: file.real, relativePath: file.relativePath });
    },
  });
  files.sort((a, b) => compareText(a.relativePath, b.relativePath));
  return { ...walked, files };
}
