import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { errnoCode, SkillshelfError, writeFileAtomic } from "@skillshelf/core";
import type { LockFile } from "./_record-types.js";
import type { LockChange } from "./_step-journal.js";
import {
  applied,
  keepWrittenLock,
  lockEntryOf,
  lockFromState,
  lockLinkOf,
  lockRoot,
  MAX_LOCK_BYTES,
  readLockFileAsWritten,
  serializeLockFile,
} from "./lockfile.js";
import { packagesDir } from "./scopes.js";
import type { ScopeState, ScopeTarget } from "./types.js";

// The lock's part of a step: the entries a step changes, worked out from the state
// it commits, and written into `lock.json` once the state is committed.

/** The lock entries `state` gives packages `ids` and links `links`. */
export function lockChangeOf(
  target: ScopeTarget,
  state: ScopeState,
  changed: { readonly ids: readonly string[]; readonly links: readonly string[] },
): LockChange {
  const root = lockRoot(target.environment, target.scope);
  return {
    packages: changed.ids.map((id) => [id, lockEntryOf(state, id, root)]),
    links: changed.links.map((path) => [path, lockLinkOf(state, path)]),
  };
}

/** A lock ready to be written once a step commits: its path, new text, and the text it replaces. */
export interface PreparedLock {
  readonly path: string;
  readonly lock: LockFile;
  readonly text: string;
  readonly expected: string | undefined;
}

/**
 * The scope's lock with `change` applied (the whole lock from `state` when there is none yet),
 * ready to write; refuses one past the reader's limit (`scope_file_too_large`) before anything is
 * written. A lock that no longer parses is `lock_invalid`.
 */
export function prepareLock(
  target: ScopeTarget,
  change: LockChange,
  state: ScopeState,
): PreparedLock {
  const { environment, scope } = target;
  const current = readLockFileAsWritten(environment, scope, target.cache);
  if (!current.ok) {
    const [first] = current.diagnostics;
    throw new SkillshelfError("lock_invalid", first?.message ?? "the scope's lock cannot be read", {
      path: first?.path,
      details: { diagnostics: current.diagnostics },
    });
  }
  const { path, value, text } = current.value;
  const lock =
    text === undefined
      ? lockFromState(state, lockRoot(environment, scope))
      : applied(value, change);
  const serialized = serializeLockFile(lock, target.cache);
  assertFits(path, serialized, MAX_LOCK_BYTES);
  return { path, lock, text: serialized, expected: text };
}

/**
 * Write a prepared lock (when it differs from the file) and, in a project, `packages/.gitignore`
 * the first time (created, never written through a link).
 */
export function writeLock(target: ScopeTarget, prepared: PreparedLock): void {
  const { path, text, expected, lock } = prepared;
  if (text !== expected) {
    writeFileAtomic({ path, text, expected });
    // a first lock is built from the whole state; the next read parses it once
    if (expected !== undefined) keepWrittenLock(target.cache, path, text, lock);
  }
  if (target.scope === "project") writeGitignore(packagesDir(target.environment, "project"));
}

/** Refuse a scope file that its reader would refuse for its size, before it is written. */
export function assertFits(path: string, text: string, limit: number): void {
  const bytes = Buffer.byteLength(text);
  if (bytes > limit)
    throw new SkillshelfError(
      "scope_file_too_large",
      `${path} would be ${bytes} bytes, more than the ${limit} its reader takes; nothing was changed`,
      { path, details: { bytes, limit } },
    );
}

// --- internal ---

function writeGitignore(dir: string): void {
  try {
    // exclusive: a file already there is kept, and a symlink there is never followed
    writeFileSync(join(dir, ".gitignore"), "*\n", { flag: "wx" });
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") throw error;
  }
}
