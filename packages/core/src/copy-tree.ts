import {
  type BigIntStats,
  closeSync,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  symlinkSync,
  writeSync,
} from "node:fs";
import { resolve } from "node:path";
import {
  fileFrame,
  stampHasher,
  type TreeDigest,
  type TreeFileRead,
  type TreeFrames,
  type TreeStamp,
  treeFrames,
} from "./_tree-frames.js";
import { type TreeNode, walkTree } from "./_tree-walk.js";
import { compareText } from "./diagnostics.js";
import { codedWriteError, errnoCode, isSkillshelfError, SkillshelfError } from "./errors.js";
import { removeTree } from "./remove-tree.js";

/** Options of `copyTree`. */
export interface CopyTreeOptions {
  /**
   * Entries to leave out, by name (at any depth, for example `.git`) and path relative to the
   * root. Default: none.
   */
  readonly skip?: ((name: string, relative: string) => boolean) | undefined;
  /** Also return each file's and link's own fingerprint (`TreeDigest.listing`). */
  readonly listing?: boolean | undefined;
  /**
   * Files written at the top of the copy (entry name → UTF-8 text, mode 0644) in place of any
   * entry of that name there, and digested as part of the copy. Default: none.
   */
  readonly files?: Readonly<Record<string, string>> | undefined;
  /** Each regular file written, handed over as its bytes are (`TreeFileRead`, at the copy's path). */
  readonly read?: ((file: TreeFileRead) => void) | undefined;
  /**
   * Also return the copy's stamp (`TreeDigest.stamp`), equal to `stampTree(to)` taken once the
   * copy is done: each file `fstat`-ed once written, each folder and link `lstat`-ed at the end.
   */
  readonly stamp?: boolean | undefined;
}

/**
 * Copy the package tree at `from` to `to`, which must not exist yet (its parent must). Folders get mode 0755, files
 * 0644 or, when executable, 0755; symlinks are copied verbatim (their targets are checked to stay
 * inside the tree, as by `digestTree`). Returns the tree digest of the copy, hashed from the bytes
 * as they are written, so a copied tree needs no second read to be digested. On any failure `to`
 * is removed again and the walk's `SkillshelfError` is thrown (`tree_changed` when a file changed
 * size while it was copied), `disk_full`, or `tree_copy_failed` naming the path that could not be
 * written (a name too long for the destination), so a refused tree leaves nothing.
 */
export function copyTree(from: string, to: string, options: CopyTreeOptions = {}): TreeDigest {
  const destination = resolve(to);
  const frames = treeFrames({ listing: options.listing === true });
  const stamp = options.stamp === true ? copyStamp() : undefined;
  const files = options.files ?? {};
  const skip = options.skip ?? (() => false);
  // each added file's frame goes where the walk's name order puts it among the top-level entries
  const pending = Object.keys(files).sort(compareText);
  const addBefore = (topName: string | undefined) => {
    for (let name = pending[0]; name !== undefined; name = pending[0]) {
      if (topName !== undefined && compareText(name, topName) >= 0) return;
      pending.shift();
      const target = `${destination}/${name}`;
      writing(target, name, () =>
        addFile(frames, name, files[name] as string, target, options.read, stamp),
      );
    }
  };
  mkdirSync(destination, { mode: 0o755 });
  try {
    walkTree(
      from,
      (node) => {
        const target = node.relative === "" ? destination : `${destination}/${node.relative}`;
        if (node.relative !== "") addBefore(node.relative.split("/", 1)[0]);
        writing(target, node.relative, () => {
          if (node.kind === "file")
            return copyRegularFile(frames, node, target, options.read, stamp);
          if (node.kind === "link") symlinkSync(node.target, target);
          else if (node.relative !== "") mkdirSync(target, { mode: 0o755 });
          frames.other(node);
          stamp?.atEnd(node.relative, target);
        });
      },
      (name, relative) => skip(name, relative) || (relative === name && Object.hasOwn(files, name)),
    );
    addBefore(undefined);
  } catch (error) {
    removeTree(destination);
    throw error;
  }
  const digest = frames.result();
  return stamp === undefined ? digest : { ...digest, stamp: stamp.result() };
}

// --- internal ---

/**
 * `write` the node at `relative` to `target`; a failure that is not the walk's own is
 * `tree_copy_failed`.
 */
function writing(target: string, relative: string, write: () => void): void {
  try {
    write();
  } catch (thrown) {
    // a full disk is `disk_full`, like every other write that meets one
    const error = codedWriteError(thrown, { path: target });
    if (isSkillshelfError(error)) throw error;
    throw new SkillshelfError(
      "tree_copy_failed",
      `could not copy ${relative} to ${target} (${errnoCode(error) ?? String(error)})`,
      {
        path: target,
        cause: error,
      },
    );
  }
}

function addFile(
  frames: TreeFrames,
  name: string,
  text: string,
  to: string,
  read: CopyTreeOptions["read"],
  stamp: CopyStamp | undefined,
): void {
  const bytes = Buffer.from(text, "utf8");
  const target = openSync(to, "wx", 0o644);
  try {
    writeAll(target, bytes);
    fchmodSync(target, 0o644);
    stamp?.written(name, target);
  } finally {
    closeSync(target);
  }
  frames.bytes(name, bytes);
  read?.({ path: to, relative: name, executable: false, bytes });
}

/**
 * Copy one file through descriptors, hashing its frame on the way: the source is opened as a
 * regular file only, so a FIFO swapped in cannot block.
 */
function copyRegularFile(
  frames: TreeFrames,
  node: Extract<TreeNode, { kind: "file" }>,
  to: string,
  read: CopyTreeOptions["read"],
  stamp: CopyStamp | undefined,
): void {
  const target = openSync(to, "wx", 0o644);
  try {
    const executable = fileFrame(frames, node, to, read, (chunk) => writeAll(target, chunk));
    // the mode the source had when it was read, whatever the umask
    fchmodSync(target, executable ? 0o755 : 0o644);
    stamp?.written(node.relative, target);
  } finally {
    closeSync(target);
  }
}

/** Write all of `bytes` to the descriptor `fd` (a write may take fewer than it is given). */
function writeAll(fd: number, bytes: Buffer): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written);
}

type CopyStamp = ReturnType<typeof copyStamp>;

/**
 * The copy's stamp, node by node in walk order: a file's stats are final once it is written and
 * its mode set; a folder's times move with every entry added to it, so folders (and links, with
 * them) are stat-ed when the copy is done.
 */
function copyStamp() {
  const nodes: string[] = [];
  const stats: (BigIntStats | string)[] = [];
  return {
    written(relative: string, fd: number): void {
      nodes.push(relative);
      stats.push(fstatSync(fd, { bigint: true }));
    },
    atEnd(relative: string, path: string): void {
      nodes.push(relative);
      stats.push(path);
    },
    result(): TreeStamp {
      const stamp = stampHasher();
      nodes.forEach((node, at) => {
        const known = stats[at] as BigIntStats | string;
        stamp.add(node, typeof known === "string" ? lstatSync(known, { bigint: true }) : known);
      });
      return stamp.result();
    },
  };
}
