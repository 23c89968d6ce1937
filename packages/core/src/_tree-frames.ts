import { createHash, type Hash } from "node:crypto";
import { closeSync, readSync } from "node:fs";
import type { TreeNode } from "./_tree-walk.js";
import { errnoCode, isSkillshelfError, SkillshelfError } from "./errors.js";
import { openRegularFile } from "./read-file.js";

/** The digest of a package tree and what it covered. */
export interface TreeDigest {
  /** Lower-case hex sha256 over every node's frame. */
  readonly digest: string;
  readonly files: number;
  readonly bytes: number;
}

/**
 * The tree digest's frames (see `digestTree`), fed node by node in walk order. A file's bytes
 * are read once, through `each`, so a copier hashes exactly what it writes.
 */
export interface TreeFrames {
  /** Add a folder's or a symlink's frame. */
  other(node: Exclude<TreeNode, { kind: "file" }>): void;
  /**
   * Add a regular file's frame, reading it (opened as a regular file only) and handing each
   * chunk to `each`; `tree_changed` when the file is not the size it had when it was opened.
   */
  file(node: Extract<TreeNode, { kind: "file" }>, each?: (chunk: Buffer) => void): void;
  result(): TreeDigest;
}

const CHUNK = 64 * 1024;

/** A fresh frame hasher. */
export function treeFrames(): TreeFrames {
  const hash = createHash("sha256");
  // one read buffer for every file of the tree
  const buffer = Buffer.allocUnsafe(CHUNK);
  let files = 0;
  let bytes = 0;
  return {
    other(node) {
      const payload = node.kind === "link" ? Buffer.from(node.target, "utf8") : Buffer.alloc(0);
      hash.update(frameHeader(node.kind, node.relative, "", payload.length));
      hash.update(payload);
      hash.update("\0");
    },
    file(node, each) {
      files += 1;
      bytes += hashFile(hash, buffer, node, each);
    },
    result: () => ({ digest: hash.digest("hex"), files, bytes }),
  };
}

// --- internal ---

function frameHeader(kind: TreeNode["kind"], relative: string, mode: string, length: number) {
  return `${kind}\0${relative}\0${mode}\0${length}\0`;
}

function hashFile(
  hash: Hash,
  buffer: Buffer,
  node: Extract<TreeNode, { kind: "file" }>,
  each: ((chunk: Buffer) => void) | undefined,
): number {
  let fd: number;
  let size: number;
  try {
    ({ fd, size } = openRegularFile(node.path));
  } catch (error) {
    if (isSkillshelfError(error)) throw changed(node.path);
    throw new SkillshelfError(
      "tree_unreadable",
      `cannot read ${node.path} (${errnoCode(error) ?? String(error)})`,
      { path: node.path, cause: error, hint: "check the permissions of the package folder" },
    );
  }
  try {
    hash.update(frameHeader("file", node.relative, node.executable ? "x" : "-", size));
    let total = 0;
    for (;;) {
      // one byte more than the file has left, so its last read comes back short
      const wanted = Math.min(buffer.length, size + 1 - total);
      const read = readSync(fd, buffer, 0, wanted, null);
      if (read === 0) break;
      total += read;
      if (total > size) break;
      const chunk = buffer.subarray(0, read);
      hash.update(chunk);
      each?.(chunk);
      if (read < wanted && total === size) break;
    }
    if (total !== size) throw changed(node.path);
    hash.update("\0");
    return size;
  } finally {
    closeSync(fd);
  }
}

function changed(path: string): SkillshelfError {
  return new SkillshelfError("tree_changed", `${path} changed while it was being read`, {
    path,
    hint: "retry when nothing else is writing to the package folder",
  });
}
