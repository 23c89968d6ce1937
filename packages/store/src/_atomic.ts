import { randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { errnoCode, SkillshelfError } from "@skillshelf/core";
import type { FaultHook } from "./_faults.js";

/** A fresh name for a sibling of `path`: `.<name>.<tag>-<pid>-<hex>`. */
export function siblingName(name: string, tag: string): string {
  return `.${name}.${tag}-${process.pid}-${randomBytes(4).toString("hex")}`;
}

/**
 * Replace the file at `path` with `text` atomically: write a temporary sibling, fsync it, check
 * that the file still holds `expected` (`undefined`: still absent), rename over it, fsync the
 * folder. A crash leaves either the old or the new file (and perhaps a temporary file that the
 * next writer removes). Throws `state_changed` when someone else changed the file meanwhile.
 */
export function writeFileAtomic(options: {
  readonly path: string;
  readonly text: string;
  readonly expected: string | undefined;
  readonly fault: FaultHook;
  /** The fault point reached once the temporary file is durable. */
  readonly point: string;
}): void {
  const { path, text, expected, fault, point } = options;
  const temporary = join(dirname(path), siblingName(basename(path), "tmp"));
  const fd = openSync(temporary, "wx", 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  fault(point);
  if (readOrUndefined(path) !== expected) {
    rmSync(temporary, { force: true });
    throw new SkillshelfError("state_changed", `${path} changed while this operation ran`, {
      path,
      hint: "something edited it without taking the scope lock; review the file, then retry",
    });
  }
  renameSync(temporary, path);
  syncFolder(dirname(path));
}

/** fsync a folder so a rename inside it is durable. */
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
    return readFileSync(path, "utf8");
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return undefined;
    throw error;
  }
}
