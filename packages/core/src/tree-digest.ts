import { createHash, type Hash } from "node:crypto";
import { closeSync, readSync } from "node:fs";
import { type TreeNode, walkTree } from "./_tree-walk.js";
import { errnoCode, isSkillshelfError, SkillshelfError } from "./errors.js";
import { openRegularFile } from "./read-file.js";

/** The digest of a package tree and what it covered. */
export interface TreeDigest {
  /** Lower-case hex sha256 over every node's frame. */
  readonly digest: string;
  readonly files: number;
  readonly bytes: number;
}

const CHUNK = 64 * 1024;

/**
 * The tree digest of a package folder (DESIGN §3.6): sha256 over one frame per node, depth-first
 * in code-unit name order from the root (relative path `""`). A frame is
 * `<kind>\0<relative path, / separated>\0<mode>\0<payload length>\0<payload>\0` where kind is
 * `directory`, `file` or `link`; mode is `x` for an executable file, `-` for any other file and
 * empty otherwise; the payload is the file's bytes, a link's target text, or nothing for a folder.
 * So names, node kinds, empty folders, bytes, link targets and the executable bit are bound;
 * times, owners and other permission bits are not, nor is where the tree lives.
 *
 * Throws a `SkillshelfError` (`tree_missing`, `tree_not_directory`, `tree_link_escape`,
 * `tree_special_file`, `tree_unreadable`, `tree_changed`) when the tree cannot be digested.
 */
export function digestTree(root: string): TreeDigest {
  const hash = createHash("sha256");
  let files = 0;
  let bytes = 0;
  walkTree(root, (node) => {
    if (node.kind === "file") {
      files += 1;
      bytes += hashFileFrame(hash, node);
    } else {
      const payload = node.kind === "link" ? Buffer.from(node.target, "utf8") : Buffer.alloc(0);
      hash.update(frameHeader(node.kind, node.relative, "", payload.length));
      hash.update(payload);
      hash.update("\0");
    }
  });
  return { digest: hash.digest("hex"), files, bytes };
}

// --- internal ---

function frameHeader(
  kind: TreeNode["kind"],
  relative: string,
  mode: string,
  length: number,
): string {
  return `${kind}\0${relative}\0${mode}\0${length}\0`;
}

function hashFileFrame(hash: Hash, node: Extract<TreeNode, { kind: "file" }>): number {
  let fd: number;
  let size: number;
  try {
    ({ fd, size } = openRegularFile(node.path));
  } catch (error) {
    if (isSkillshelfError(error)) throw changed(node.path);
    throw new SkillshelfError(
      "tree_unreadable",
      `cannot read ${node.path} (${errnoCode(error) ?? String(error)})`,
      {
        path: node.path,
        cause: error,
        hint: "check the permissions of the package folder",
      },
    );
  }
  try {
    hash.update(frameHeader("file", node.relative, node.executable ? "x" : "-", size));
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(size, 1)));
    let total = 0;
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      total += read;
      if (total > size) break;
      hash.update(buffer.subarray(0, read));
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
