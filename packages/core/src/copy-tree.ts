import {
  closeSync,
  fchmodSync,
  mkdirSync,
  openSync,
  readSync,
  rmSync,
  symlinkSync,
  writeSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { walkTree } from "./_tree-walk.js";
import { errnoCode, isSkillshelfError, SkillshelfError } from "./errors.js";
import { openRegularFile } from "./read-file.js";

/** Options of `copyTree`. */
export interface CopyTreeOptions {
  /** Entry names (at any depth) to leave out, for example `.git`. Default: none. */
  readonly skip?: ((name: string) => boolean) | undefined;
}

/**
 * Copy the package tree at `from` to `to`, which must not exist yet (its parent must). Folders get mode 0755, files
 * 0644 or, when executable, 0755; symlinks are copied verbatim (their targets are checked to stay
 * inside the tree, as by `digestTree`). On any failure `to` is removed again and the walk's
 * `SkillshelfError` is thrown, or `tree_copy_failed` naming the path that could not be written
 * (a name too long for the destination, a full disk), so a refused tree leaves nothing.
 */
export function copyTree(from: string, to: string, options: CopyTreeOptions = {}): void {
  const destination = resolve(to);
  mkdirSync(destination, { mode: 0o755 });
  try {
    walkTree(
      from,
      (node) => {
        if (node.relative === "") return;
        const target = join(destination, node.relative);
        try {
          if (node.kind === "directory") mkdirSync(target, { mode: 0o755 });
          else if (node.kind === "link") symlinkSync(node.target, target);
          else {
            copyRegularFile(node.path, target, node.executable ? 0o755 : 0o644);
          }
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
}

// --- internal ---

const COPY_CHUNK = 1024 * 1024;

/** Copy through descriptors: the source is opened as a regular file only, so a FIFO swapped in cannot block. */
function copyRegularFile(from: string, to: string, mode: number): void {
  const source = openRegularFile(from);
  try {
    const target = openSync(to, "wx", mode);
    try {
      const buffer = Buffer.allocUnsafe(Math.min(COPY_CHUNK, Math.max(source.size, 1)));
      for (;;) {
        const read = readSync(source.fd, buffer, 0, buffer.length, null);
        if (read === 0) break;
        let written = 0;
        while (written < read) written += writeSync(target, buffer, written, read - written);
      }
      fchmodSync(target, mode);
    } finally {
      closeSync(target);
    }
  } finally {
    closeSync(source.fd);
  }
}
