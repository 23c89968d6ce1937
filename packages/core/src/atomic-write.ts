import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { codedWriteError, errnoCode, SkillshelfError } from "./errors.js";
import { randomHex } from "./hash.js";
import { readRegularFile } from "./read-file.js";

/** A fresh hidden name for a sibling of a file or folder: `.<name>.<tag>-<pid>-<hex>`. */
export function siblingName(name: string, tag: string): string {
  return `.${name}.${tag}-${process.pid}-${randomHex(4)}`;
}

/**
 * Replace the file at `path` with `text` atomically: write a temporary sibling (mode 0600), fsync
 * it, check that the file still holds `expected` (`undefined`: still absent), rename over it,
 * fsync the folder. A crash leaves the old or the new file, and perhaps a `.<name>.tmp-…` sibling;
 * a failed write removes its temporary file. Throws `file_changed` (with the path) when someone
 * else changed the file meanwhile, and `disk_full` when no space is left to write it.
 * `beforeRename` runs once the temporary file is durable. `syncFolder: false` leaves the folder's
 * fsync to a caller that writes several files into it and syncs it once after the last.
 */
export function writeFileAtomic(options: {
  readonly path: string;
  readonly text: string;
  readonly expected: string | undefined;
  readonly beforeRename?: (() => void) | undefined;
  readonly syncFolder?: boolean | undefined;
}): void {
  const { path, text, expected } = options;
  const temporary = join(dirname(path), siblingName(basename(path), "tmp"));
  const fd = openSync(temporary, "wx", 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw codedWriteError(error, { path });
  }
  closeSync(fd);
  options.beforeRename?.();
  if (readOrUndefined(path) !== expected) {
    rmSync(temporary, { force: true });
    throw new SkillshelfError("file_changed", `${path} changed while this operation ran`, {
      path,
    });
  }
  renameSync(temporary, path);
  if (options.syncFolder !== false) syncFolder(dirname(path));
}

/** fsync a folder so that a rename inside it is durable. */
export function syncFolder(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

// --- internal ---

function readOrUndefined(path: string): string | undefined {
  try {
    return readRegularFile(path).toString("utf8");
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return undefined;
    throw error;
  }
}
