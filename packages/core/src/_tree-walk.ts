import { lstatSync, readdirSync, readlinkSync, realpathSync, type Stats } from "node:fs";
import { join, resolve } from "node:path";
import { resolveContained } from "./containment.js";
import { compareText } from "./diagnostics.js";
import { errnoCode, SkillshelfError } from "./errors.js";

/** One node of a package tree, as the digest and the copier see it. */
export type TreeNode =
  | { readonly kind: "directory"; readonly path: string; readonly relative: string }
  | {
      readonly kind: "file";
      readonly path: string;
      readonly relative: string;
      readonly executable: boolean;
    }
  | {
      readonly kind: "link";
      readonly path: string;
      readonly relative: string;
      readonly target: string;
    };

/**
 * Visit every node under `root` depth-first in code-unit name order, the root itself first with
 * relative path `""`. Throws a `SkillshelfError` for a missing root (`tree_missing`), a root that
 * is not a real folder (`tree_not_directory`), a symlink that is absolute or whose resolution
 * leaves the tree at any step, as the kernel resolves it (`tree_link_escape`; see
 * `resolveContained`, relocatable), a socket, FIFO or device (`tree_special_file`), or a node
 * that cannot be read (`tree_unreadable`). `skip` names entries (at any depth) left out entirely.
 */
export function walkTree(
  root: string,
  visit: (node: TreeNode) => void,
  skip: (name: string) => boolean = () => false,
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
  walkDirectory({ rootReal: realpathSync.native(rootPath), visit, skip }, rootPath, "");
}

// --- internal ---

interface TreeWalk {
  readonly rootReal: string;
  readonly visit: (node: TreeNode) => void;
  readonly skip: (name: string) => boolean;
}

function walkDirectory(walk: TreeWalk, path: string, relative: string): void {
  const { visit, skip } = walk;
  visit({ kind: "directory", path, relative });
  let names: string[];
  try {
    names = readdirSync(path);
  } catch (error) {
    throw unreadable(path, error);
  }
  for (const name of names.sort(compareText)) {
    if (skip(name)) continue;
    const childPath = join(path, name);
    const childRelative = relative === "" ? name : `${relative}/${name}`;
    const stats = lstatOrThrow(childPath);
    if (stats === undefined) continue;
    if (stats.isDirectory()) walkDirectory(walk, childPath, childRelative);
    else if (stats.isFile())
      visit({
        kind: "file",
        path: childPath,
        relative: childRelative,
        executable: (stats.mode & 0o100) !== 0,
      });
    else if (stats.isSymbolicLink())
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

function linkTarget(rootReal: string, path: string, relative: string): string {
  let target: string;
  let resolved: ReturnType<typeof resolveContained>;
  try {
    target = readlinkSync(path);
    resolved = resolveContained(`${rootReal}/${relative}`, rootReal, { relocatable: true });
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
