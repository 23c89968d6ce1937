import { lstatSync } from "node:fs";
import { join } from "node:path";
import {
  fileFrame,
  stampLine,
  TREE_READ_BYTES,
  type TreeDigest,
  type TreeFileRead,
  type TreeStamp,
  treeFrames,
} from "./_tree-frames.js";
import { walkTree } from "./_tree-walk.js";
import { createSha256 } from "./hash.js";

export type { TreeDigest, TreeFileRead, TreeStamp };
export { TREE_READ_BYTES };

/**
 * The tree digest of a package folder: sha256 over one frame per node, depth-first
 * in code-unit name order from the root (relative path `""`). A frame is
 * `<kind>\0<relative path, / separated>\0<mode>\0<payload length>\0<payload>\0` where kind is
 * `directory`, `file` or `link`; mode is `x` for an executable file, `-` for any other file and
 * empty otherwise; the payload is the file's bytes, a link's target text, or nothing for a folder.
 * So names, node kinds, empty folders, bytes, link targets and the executable bit are bound;
 * times, owners and other permission bits are not, nor is where the tree lives.
 *
 * With `listing`, each file's and link's own fingerprint comes back too (`TreeDigest.listing`);
 * with `stamp`, the tree's stamp, equal to `stampTree`'s taken just before the read while nothing
 * changes, at the cost of a `fstat` per file and an `lstat` per folder and link; with `read`, each
 * regular file is handed over as it is read (`TreeFileRead`), so one read serves another reader.
 * Throws a `SkillshelfError` (`tree_missing`, `tree_not_directory`, `tree_link_escape`,
 * `tree_special_file`, `tree_unreadable`, `tree_changed`) when the tree cannot be digested.
 */
export function digestTree(
  root: string,
  options: {
    readonly listing?: boolean;
    /** A buffer to read files into, of `TREE_READ_BYTES` at least: a caller digesting many trees in turn passes one. */
    readonly scratch?: Buffer;
    readonly stamp?: boolean;
    readonly read?: ((file: TreeFileRead) => void) | undefined;
    /** Entries to leave out, by name and path relative to the root (as `copyTree`'s `skip`). */
    readonly skip?: ((name: string, relative: string) => boolean) | undefined;
  } = {},
): TreeDigest {
  const frames = treeFrames(options);
  walkTree(
    root,
    (node) =>
      node.kind === "file" ? fileFrame(frames, node, node.path, options.read) : frames.other(node),
    options.skip,
  );
  return frames.result();
}

/**
 * What `lstat` says of every node of the package folder `root` (size, nanosecond times, inode,
 * mode), hashed into one `stamp`: any write, rename, new or removed entry in the tree changes it,
 * so a tree whose stamp is unchanged digests as it did. The root's own change time is left out,
 * as the digest leaves out where the tree lives: a tree moved whole keeps its stamp. `undefined`
 * when the tree cannot be walked (the digest then says why).
 */
export function stampTree(root: string): TreeStamp | undefined {
  const nodes: string[] = [];
  try {
    walkTree(root, (node) => nodes.push(node.relative));
  } catch {
    return undefined;
  }
  const stamp = restampTree(root, nodes);
  return stamp === undefined ? undefined : { stamp, nodes };
}

/**
 * `stampTree(root).stamp` from the nodes an earlier stamp covered, without listing a folder: a
 * folder's times move whenever an entry is added to it, removed or renamed, so the result equals
 * that stamp exactly while nothing in the tree changed. `undefined` when a node is gone.
 */
export function restampTree(root: string, nodes: readonly string[]): string | undefined {
  const hash = createSha256();
  for (const node of nodes) {
    const stats = lstatSync(node === "" ? root : join(root, node), {
      bigint: true,
      throwIfNoEntry: false,
    });
    if (stats === undefined) return undefined;
    hash.update(stampLine(node, stats));
  }
  return hash.digest("hex");
}
