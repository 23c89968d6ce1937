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

/**
 * Visit every node under `root` depth-first in code-unit name order, the root itself first with
 * relative path `""`. Node kinds come from the folders' entries, so a file is not stat-ed here:
 * whoever opens it learns its mode from the open descriptor. Throws a `SkillshelfError` for a
 * missing root (`tree_missing`), a root that is not a real folder (`tree_not_directory`), a
 * symlink that is absolute or whose resolution leaves the tree at any step, as the kernel
 * resolves it (`tree_link_escape`; see `resolveContained`, relocatable), a socket, FIFO or
 * device (`tree_special_file`), or a node that cannot be read (`tree_unreadable`). `skip` names
 * entries (at any depth, by name and relative path) left out entirely.
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
      hint: "check the path of the package folder",
    });
  if (!stats.isDirectory())
    throw new SkillshelfError("tree_not_directory", `${rootPath} is not a folder`, {
      path: rootPath,
      hint: "a package is a folder; name the folder, not a file or a symlink to one",
    });
  // only a symlink needs the root's real path, and most trees have none
  let rootReal: string | undefined;
  const real = () => {
    rootReal ??= realpathSync.native(rootPath);
    return rootReal;
  };
  walkDirectory({ rootReal: real, visit, skip }, rootPath, "");
}

// --- internal ---

interface TreeWalk {
  readonly rootReal: () => string;
  readonly visit: (node: TreeNode) => void;
  readonly skip: (name: string, relative: string) => boolean;
}

function walkDirectory(walk: TreeWalk, path: string, relative: string): void {
  const { visit, skip } = walk;
  visit({ kind: "directory", path, relative });
  let entries: Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch (error) {
    throw unreadable(path, error);
  }
  entries.sort((a, b) => compareText(a.name, b.name));
  // `path` is resolved, so a child's path is a plain join
  const parent = path.endsWith("/") ? path : `${path}/`;
  for (const entry of entries) {
    const name = entry.name;
    const childRelative = relative === "" ? name : `${relative}/${name}`;
    if (skip(name, childRelative)) continue;
    const childPath = parent + name;
    if (entry.isDirectory()) walkDirectory(walk, childPath, childRelative);
    else if (entry.isFile()) visit({ kind: "file", path: childPath, relative: childRelative });
    else if (entry.isSymbolicLink())
      visit({
        kind: "link",
        path: childPath,
        relative: childRelative,
        target: linkTarget(walk.rootReal, childPath, childRelative),
      });
    else
      throw new SkillshelfError(
        "tree_special_file",
        `${childPath} is a socket, FIFO or device; a package holds only folders, files and symlinks`,
        { path: childPath, hint: "remove it from the package folder" },
      );
  }
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
        hint: "replace the symlink with the file it points to, or make it a relative link inside the package",
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
    { path, cause: error, hint: "check the permissions of the package folder" },
  );
}
