import {
  type Dirent,
  lstatSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  type Stats,
} from "node:fs";
import { resolve } from "node:path";
import { resolveContained } from "./containment.js";
import { compareText } from "./diagnostics.js";
import { errnoCode, SkillshelfError } from "./errors.js";

/** One node of a package tree, as the digest and the copier see it. */
export type TreeNode =
  | { readonly kind: "directory"; readonly path: string; readonly relative: string }
  | { readonly kind: "file"; readonly path: string; readonly relative: string }
  | {
      readonly kind: "link";
      readonly path: string;
      readonly relative: string;
      readonly target: string;
    };

/** How many folders deep a package tree may go; no real package comes near it. */
const MAX_TREE_DEPTH = 64;

/**
 * Visit every node under `root` depth-first in code-unit name order, the root itself first with
 * relative path `""`, without recursion. Node kinds come from the folders' entries, so a file is
 * not stat-ed here: whoever opens it learns its mode from the open descriptor. Throws a
 * `SkillshelfError` for a missing root (`tree_missing`), a root that is not a real folder
 * (`tree_not_directory`), a folder more than `MAX_TREE_DEPTH` below the root (`tree_too_deep`), a
 * symlink that is absolute or whose resolution leaves the tree at any step, as the kernel
 * resolves it (`tree_link_escape`; see `resolveContained`, relocatable), a socket, FIFO or device
 * (`tree_special_file`), or a node that cannot be read (`tree_unreadable`). `skip` names entries
 * (at any depth, by name and relative path) left out entirely.
 */
export function walkTree(
  root: string,
  visit: (node: TreeNode) => void,
  skip: (name: string, relative: string) => boolean = () => false,
): void {
  const rootPath = resolve(root);
  const stats = lstatOrThrow(rootPath);
  if (stats === undefined)
    throw new SkillshelfError("tree_missing", `${rootPath} does not exist`, {
      path: rootPath,
    });
  if (!stats.isDirectory())
    throw new SkillshelfError("tree_not_directory", `${rootPath} is not a folder`, {
      path: rootPath,
    });
  // only a symlink needs the root's real path, and most trees have none
  let rootReal: string | undefined;
  const real = () => {
    rootReal ??= realpathSync.native(rootPath);
    return rootReal;
  };
  // entries still to visit, the next one last: a folder's entries are pushed when it is visited,
  // so the order is a recursive walk's (a folder and all it holds before its next sibling)
  const pending: PendingEntry[] = [{ path: rootPath, relative: "", depth: 0, kind: "directory" }];
  const walk: TreeWalk = { rootReal: real, visit, skip };
  for (let entry = pending.pop(); entry !== undefined; entry = pending.pop()) {
    if (entry.kind !== "directory") {
      visitLeaf(walk, entry);
      continue;
    }
    if (entry.depth > MAX_TREE_DEPTH)
      throw new SkillshelfError(
        "tree_too_deep",
        `${entry.path} is more than ${MAX_TREE_DEPTH} folders below ${rootPath}`,
        { path: rootPath },
      );
    visit({ kind: "directory", path: entry.path, relative: entry.relative });
    const children = entriesOf(walk, entry);
    for (let index = children.length - 1; index >= 0; index--)
      pending.push(children[index] as PendingEntry);
  }
}

// --- internal ---

interface TreeWalk {
  readonly rootReal: () => string;
  readonly visit: (node: TreeNode) => void;
  readonly skip: (name: string, relative: string) => boolean;
}

interface PendingEntry {
  readonly path: string;
  readonly relative: string;
  readonly depth: number;
  readonly kind: "directory" | "file" | "link" | "other";
}

/** The entries of a folder that are not skipped, in code-unit name order. */
function entriesOf(walk: TreeWalk, folder: PendingEntry): PendingEntry[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder.path, { withFileTypes: true });
  } catch (error) {
    throw unreadable(folder.path, error);
  }
  entries.sort((a, b) => compareText(a.name, b.name));
  // `path` is resolved, so a child's path is a plain join
  const parent = folder.path.endsWith("/") ? folder.path : `${folder.path}/`;
  return entries.flatMap((entry): PendingEntry[] => {
    const relative = folder.relative === "" ? entry.name : `${folder.relative}/${entry.name}`;
    if (walk.skip(entry.name, relative)) return [];
    const kind = entry.isDirectory()
      ? "directory"
      : entry.isFile()
        ? "file"
        : entry.isSymbolicLink()
          ? "link"
          : "other";
    return [{ path: parent + entry.name, relative, depth: folder.depth + 1, kind }];
  });
}

function visitLeaf(walk: TreeWalk, entry: PendingEntry): void {
  const { path, relative } = entry;
  if (entry.kind === "file") walk.visit({ kind: "file", path, relative });
  else if (entry.kind === "link")
    walk.visit({ kind: "link", path, relative, target: linkTarget(walk.rootReal, path, relative) });
  else
    throw new SkillshelfError(
      "tree_special_file",
      `${path} is a socket, FIFO or device; a package holds only folders, files and symlinks`,
      { path },
    );
}

function linkTarget(rootReal: () => string, path: string, relative: string): string {
  let target: string;
  let resolved: ReturnType<typeof resolveContained>;
  try {
    target = readlinkSync(path);
    const root = rootReal();
    resolved = resolveContained(`${root}/${relative}`, root, { relocatable: true });
  } catch (error) {
    throw unreadable(path, error);
  }
  if (resolved.status === "outside")
    throw new SkillshelfError(
      "tree_link_escape",
      `${path} links to ${target}, outside the package; a package's symlinks must stay inside it and be relative`,
      {
        path,
      },
    );
  return target;
}

/** The node's own stats, or `undefined` when it does not exist (or vanished while walking). */
function lstatOrThrow(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return undefined;
    throw unreadable(path, error);
  }
}

function unreadable(path: string, error: unknown): SkillshelfError {
  return new SkillshelfError(
    "tree_unreadable",
    `cannot read ${path} (${errnoCode(error) ?? String(error)})`,
    { path, cause: error },
  );
}
