import { lstatSync } from "node:fs";
import { type TreeDigest, treeFrames } from "./_tree-frames.js";
import { walkTree } from "./_tree-walk.js";

export type { TreeDigest };

/**
 * The tree digest of a package folder: sha256 over one frame per node, depth-first
 * in code-unit name order from the root (relative path `""`). A frame is
 * `<kind>\0<relative path, / separated>\0<mode>\0<payload length>\0<payload>\0` where kind is
 * `directory`, `file` or `link`; mode is `x` for an executable file, `-` for any other file and
 * empty otherwise; the payload is the file's bytes, a link's target text, or nothing for a folder.
 * So names, node kinds, empty folders, bytes, link targets and the executable bit are bound;
 * times, owners and other permission bits are not, nor is where the tree lives.
 *
 * With `listing`, each file's and link's own fingerprint comes back too (`TreeDigest.listing`).
 * Throws a `SkillshelfError` (`tree_missing`, `tree_not_directory`, `tree_link_escape`,
 * `tree_special_file`, `tree_unreadable`, `tree_changed`) when the tree cannot be digested.
 */
export function digestTree(root: string, options: { readonly listing?: boolean } = {}): TreeDigest {
  const frames = treeFrames(options);
  walkTree(root, (node) => (node.kind === "file" ? frames.file(node) : frames.other(node)));
  return frames.result();
}

/**
 * What `lstat` says of every node of the package folder `root` (size, nanosecond times, inode,
 * mode), as one string: any write, rename, new or removed entry in the tree changes it, so a tree
 * whose stamp is unchanged digests as it did. `undefined` when the tree cannot be walked (the
 * digest then says why).
 */
export function stampTree(root: string): string | undefined {
  const parts: string[] = [];
  try {
    walkTree(root, (node) => {
      const stats = lstatSync(node.path, { bigint: true });
      parts.push(
        `${node.relative}\0${stats.mode}\0${stats.size}\0${stats.mtimeNs}\0${stats.ctimeNs}\0${stats.ino}`,
      );
    });
  } catch {
    return undefined;
  }
  return parts.join("\0\0");
}
