import type { Hash } from "node:crypto";
import { type BigIntStats, closeSync, fstatSync, lstatSync, readSync } from "node:fs";
import type { TreeNode } from "./_tree-walk.js";
import { errnoCode, isSkillshelfError, SkillshelfError } from "./errors.js";
import { createSha256 } from "./hash.js";
import { openRegularFile } from "./read-file.js";

/** The digest of a package tree and what it covered. */
export interface TreeDigest {
  /** Lower-case hex sha256 over every node's frame. */
  readonly digest: string;
  readonly files: number;
  readonly bytes: number;
  /**
   * With `listing`: each file's and link's own fingerprint by relative path (the first 16 hex
   * digits of a file's sha256, `->` and a link's target), so two listings tell which differ.
   */
  readonly listing?: Readonly<Record<string, string>> | undefined;
  /** With `stamp`: the tree's stamp as `stampTree` takes it, each node stat-ed as it was read. */
  readonly stamp?: TreeStamp | undefined;
}

/** A tree's stamp, and the nodes it covers (relative paths, `""` the root, in walk order). */
export interface TreeStamp {
  readonly stamp: string;
  readonly nodes: readonly string[];
}

/**
 * The tree digest's frames (see `digestTree`), fed node by node in walk order. A file's bytes
 * are read once, through `each`, so a copier hashes exactly what it writes.
 */
export interface TreeFrames {
  /** Add a folder's or a symlink's frame. */
  other(node: Exclude<TreeNode, { kind: "file" }>): void;
  /**
   * Add a regular file's frame, reading it (opened as a regular file only, never through a
   * symlink) and handing each chunk to `each`; returns whether it is executable, as the open
   * descriptor says. `tree_changed` when it is no longer a regular file or not the size it had
   * when it was opened.
   */
  file(node: Extract<TreeNode, { kind: "file" }>, each?: (chunk: Buffer) => void): boolean;
  /** Add the frame of a non-executable regular file at `relative` holding `bytes`. */
  bytes(relative: string, bytes: Buffer): void;
  result(): TreeDigest;
}

/** A regular file as a tree digest read it (`digestTree`'s and `copyTree`'s `read`). */
export interface TreeFileRead {
  /** Where its bytes can be read again: the digested tree's file, or a copy's. */
  readonly path: string;
  /** `/`-separated, from the tree's root. */
  readonly relative: string;
  readonly executable: boolean;
  /**
   * Its bytes, when one read (`TREE_READ_BYTES`) held them all, else `undefined`: read it
   * yourself. Valid during the call only (the digest reads the next file into the same buffer).
   */
  readonly bytes: Buffer | undefined;
}

/**
 * `frames.file(node, each)`, then the file handed to `read` (at `path`) with its bytes when its
 * one chunk held them all.
 */
export function fileFrame(
  frames: TreeFrames,
  node: Extract<TreeNode, { kind: "file" }>,
  path: string,
  read: ((file: TreeFileRead) => void) | undefined,
  each?: (chunk: Buffer) => void,
): boolean {
  if (read === undefined) return frames.file(node, each);
  let chunks = 0;
  let whole: Buffer | undefined;
  const executable = frames.file(node, (chunk) => {
    chunks += 1;
    whole = chunk;
    each?.(chunk);
  });
  // an empty file has no chunk at all
  const bytes = chunks === 0 ? Buffer.alloc(0) : chunks === 1 ? whole : undefined;
  read({ path, relative: node.relative, executable, bytes });
  return executable;
}

/** How many bytes of a file a digest reads at a time: the least a `scratch` buffer holds. */
export const TREE_READ_BYTES: number = 64 * 1024;

/**
 * A fresh frame hasher; with `listing`, each file's and link's own fingerprint is kept too; with
 * `stamp`, the tree's stamp (each folder and link `lstat`-ed as its frame is added, each file
 * `fstat`-ed once it is open, before it is read). `scratch` (of `TREE_READ_BYTES` at least) is
 * read into instead of a buffer of its own.
 */
export function treeFrames(
  options: { readonly listing?: boolean; readonly scratch?: Buffer; readonly stamp?: boolean } = {},
): TreeFrames {
  const hash = createSha256();
  const stamp = options.stamp === true ? stampHasher() : undefined;
  // one read buffer for every file of the tree (or of every tree the caller digests)
  const buffer =
    options.scratch !== undefined && options.scratch.length >= TREE_READ_BYTES
      ? options.scratch.subarray(0, TREE_READ_BYTES)
      : Buffer.allocUnsafe(TREE_READ_BYTES);
  let files = 0;
  let bytes = 0;
  const listing: Record<string, string> | undefined =
    options.listing === true ? Object.create(null) : undefined;
  return {
    other(node) {
      stamp?.add(node.relative, lstatSync(node.path, { bigint: true }));
      if (listing !== undefined && node.kind === "link")
        listing[node.relative] = `->${node.target}`;
      const payload = node.kind === "link" ? Buffer.from(node.target, "utf8") : Buffer.alloc(0);
      hash.update(frameHeader(node.kind, node.relative, "", payload.length));
      hash.update(payload);
      hash.update("\0");
    },
    file(node, each) {
      files += 1;
      const own = listing === undefined ? undefined : createSha256();
      const feed =
        own === undefined
          ? each
          : (chunk: Buffer) => {
              own.update(chunk);
              each?.(chunk);
            };
      const file = hashFile(hash, buffer, node, feed, stamp);
      if (listing !== undefined && own !== undefined) listing[node.relative] = fingerprint(own);
      bytes += file.size;
      return file.executable;
    },
    bytes(relative, content) {
      files += 1;
      bytes += content.length;
      if (listing !== undefined) listing[relative] = fingerprint(createSha256().update(content));
      hash.update(frameHeader("file", relative, "-", content.length));
      hash.update(content);
      hash.update("\0");
    },
    result: () => ({
      digest: hash.digest("hex"),
      files,
      bytes,
      ...(listing === undefined ? {} : { listing }),
      ...(stamp === undefined ? {} : { stamp: stamp.result() }),
    }),
  };
}

/**
 * One node's line of a tree stamp, from its `lstat` (or, for a file, the `fstat` of it opened
 * without following a link: the same inode): renaming the root moves its change time, and
 * nothing the digest reads, so the root's is left out.
 */
export function stampLine(relative: string, stats: BigIntStats): string {
  const changed = relative === "" ? "" : stats.ctimeNs;
  return `${relative}\0${stats.mode}\0${stats.size}\0${stats.mtimeNs}\0${changed}\0${stats.ino}\0\0`;
}

/** A tree stamp taken node by node, in walk order. */
export function stampHasher(): {
  add(relative: string, stats: BigIntStats): void;
  result(): TreeStamp;
} {
  const hash = createSha256();
  const nodes: string[] = [];
  return {
    add(relative: string, stats: BigIntStats): void {
      nodes.push(relative);
      hash.update(stampLine(relative, stats));
    },
    result: (): TreeStamp => ({ stamp: hash.digest("hex"), nodes }),
  };
}

// --- internal ---

/** A file's fingerprint in a listing: the first 16 hex digits of its sha256, enough to tell a change. */
function fingerprint(hash: Hash): string {
  return hash.digest("hex").slice(0, 16);
}

function frameHeader(kind: TreeNode["kind"], relative: string, mode: string, length: number) {
  return `${kind}\0${relative}\0${mode}\0${length}\0`;
}

function hashFile(
  hash: Hash,
  buffer: Buffer,
  node: Extract<TreeNode, { kind: "file" }>,
  each: ((chunk: Buffer) => void) | undefined,
  stamp: ReturnType<typeof stampHasher> | undefined,
): { readonly size: number; readonly executable: boolean } {
  let fd: number;
  let size: number;
  let mode: number;
  try {
    ({ fd, size, mode } = openRegularFile(node.path, { noFollow: true }));
  } catch (error) {
    // listed as a file, then something else, or gone: not the tree the walk listed
    if (isSkillshelfError(error) || ["ELOOP", "ENOENT"].includes(errnoCode(error) ?? ""))
      throw changed(node.path);
    throw new SkillshelfError(
      "tree_unreadable",
      `cannot read ${node.path} (${errnoCode(error) ?? String(error)})`,
      { path: node.path, cause: error },
    );
  }
  try {
    // stat-ed before it is read: a write while it is read moves what a restamp sees
    stamp?.add(node.relative, fstatSync(fd, { bigint: true }));
    const executable = (mode & 0o100) !== 0;
    hash.update(frameHeader("file", node.relative, executable ? "x" : "-", size));
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
    return { size, executable };
  } finally {
    closeSync(fd);
  }
}

function changed(path: string): SkillshelfError {
  return new SkillshelfError("tree_changed", `${path} changed while it was being read`, {
    path,
  });
}
