import {
  closeSync,
  fchmodSync,
  mkdirSync,
  openSync,
  rmSync,
  symlinkSync,
  writeSync,
} from "node:fs";
import { resolve } from "node:path";
import { type TreeDigest, type TreeFrames, treeFrames } from "./_tree-frames.js";
import { type TreeNode, walkTree } from "./_tree-walk.js";
import { errnoCode, isSkillshelfError, SkillshelfError } from "./errors.js";

/** Options of `copyTree`. */
export interface CopyTreeOptions {
  /** Entry names (at any depth) to leave out, for example `.git`. Default: none. */
  readonly skip?: ((name: string) => boolean) | undefined;
}

/**
 * Copy the package tree at `from` to `to`, which must not exist yet (its parent must). Folders get mode 0755, files
 * 0644 or, when executable, 0755; symlinks are copied verbatim (their targets are checked to stay
 * inside the tree, as by `digestTree`). Returns the tree digest of the copy, hashed from the bytes
 * as they are written, so a copied tree needs no second read to be digested. On any failure `to`
 * is removed again and the walk's `SkillshelfError` is thrown (`tree_changed` when a file changed
 * size while it was copied), or `tree_copy_failed` naming the path that could not be written (a
 * name too long for the destination, a full disk), so a refused tree leaves nothing.
 */
export function copyTree(from: string, to: string, options: CopyTreeOptions = {}): TreeDigest {
  const destination = resolve(to);
  const frames = treeFrames();
  mkdirSync(destination, { mode: 0o755 });
  try {
    walkTree(
      from,
      (node) => {
        const target = node.relative === "" ? destination : `${destination}/${node.relative}`;
        try {
          if (node.kind === "file") return copyRegularFile(frames, node, target);
          if (node.kind === "link") symlinkSync(node.target, target);
          else if (node.relative !== "") mkdirSync(target, { mode: 0o755 });
          frames.other(node);
        } catch (error) {
          if (isSkillshelfError(error)) throw error;
          throw new SkillshelfError(
            "tree_copy_failed",
            `could not copy ${node.relative} to ${target} (${errnoCode(error) ?? String(error)})`,
            {
              path: target,
              cause: error,
              hint: "check the free space and the length of the destination's paths, then retry",
            },
          );
        }
      },
      options.skip,
    );
  } catch (error) {
    rmSync(destination, { recursive: true, force: true });
    throw error;
  }
  return frames.result();
}

// --- internal ---

/**
 * Copy one file through descriptors, hashing its frame on the way: the source is opened as a
 * regular file only, so a FIFO swapped in cannot block.
 */
function copyRegularFile(
  frames: TreeFrames,
  node: Extract<TreeNode, { kind: "file" }>,
  to: string,
): void {
  const target = openSync(to, "wx", 0o644);
  try {
    const executable = frames.file(node, (chunk) => {
      let written = 0;
      while (written < chunk.length) written += writeSync(target, chunk, written);
    });
    // the mode the source had when it was read, whatever the umask
    fchmodSync(target, executable ? 0o755 : 0o644);
  } finally {
    closeSync(target);
  }
}
