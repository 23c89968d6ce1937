import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import {
  canonicalJsonFile,
  canonicalJsonFileReusing,
  type Environment,
  isInside,
  mapSourceFolders,
  type PackageScope,
  type ReadResult,
} from "@skillshelf/core";
import { parseLockValue } from "./_lock-schema.js";
import type { LockedLink, LockedPackage, LockFile } from "./_record-types.js";
import {
  hasStepJournal,
  isStepCommitted,
  type LockChange,
  readStepJournal,
  STEP_JOURNAL,
} from "./_step-journal.js";
import { readStrictFile, type StrictFile } from "./_strict-file.js";
import { RECORD_DEPTH, type ScopeCache, withTableEntries, withTableEntry } from "./cache.js";
import { packagesDir } from "./scopes.js";
import { readScopeState } from "./state.js";
import type { ScopeState } from "./types.js";

export type { LockedLink, LockedPackage, LockFile } from "./_record-types.js";

/** A lock with nothing pinned. */
export const EMPTY_LOCK: LockFile = { version: 1, packages: {} };

/** The largest `lock.json` its reader takes; a writer refuses to write a larger one. */
export const MAX_LOCK_BYTES = 16 * 1024 * 1024;

/** Where a scope's lock is: `lock.json` in its library, beside `packages/`. */
export function lockFilePath(environment: Environment, scope: PackageScope): string {
  return join(dirname(packagesDir(environment, scope)), "lock.json");
}

/**
 * The folder a scope's lock writes local sources relative to, so a project's lock names a
 * folder inside the project the same way on every clone: the project for the project scope,
 * home for the user scope.
 */
export function lockRoot(environment: Environment, scope: PackageScope): string {
  return scope === "project" ? environment.project : environment.home;
}

/**
 * Read a scope's `lock.json` strictly, like the state: absent is an empty lock (`text`
 * `undefined`); a symlink or hard link is `lock_unsafe`; anything unreadable or off the format is
 * `lock_invalid`, reported with its path and never overwritten. A `cache` is used as
 * `readScopeState` uses it. While a committed step is not yet settled (a writer was killed after
 * committing its state), `value` is the lock as that step leaves it, so no reader takes the half
 * of a step that reached the state for a change of the user's intent; `text` is the file's.
 */
export function readLockFile(
  environment: Environment,
  scope: PackageScope,
  cache?: ScopeCache,
): ReadResult<StrictFile<LockFile>> {
  const read = readLockFileAsWritten(environment, scope, cache);
  if (!read.ok) return read;
  const change = committedLockChange(environment, scope, cache);
  return change === undefined
    ? read
    : { ...read, value: { ...read.value, value: applied(read.value.value, change) } };
}

/** `value` (a lock carried elsewhere: an offline bundle's) read as a lock, or `undefined` when it is not one. */
export function lockFileOf(value: unknown): LockFile | undefined {
  const parsed = parseLockValue(value);
  return parsed.success ? parsed.data : undefined;
}

/** `lock.json` as the file holds it, for the writers that bring it up to date. */
export function readLockFileAsWritten(
  environment: Environment,
  scope: PackageScope,
  cache?: ScopeCache,
): ReadResult<StrictFile<LockFile>> {
  return readStrictFile({
    path: lockFilePath(environment, scope),
    what: "lock",
    maxBytes: MAX_LOCK_BYTES,
    empty: EMPTY_LOCK,
    parse: parseLockValue,
    codes: { invalid: "lock_invalid", unsafe: "lock_unsafe" },
    consequence: "nothing will overwrite it until it is fixed",
    cache,
  });
}

/** A lock with a step's entries applied (each table copied once, however many entries change). */
export function applied(lock: LockFile, change: LockChange): LockFile {
  const packages =
    change.packages.length === 0 ? lock.packages : withTableEntries(lock.packages, change.packages);
  if (change.links.length === 0) return { ...lock, packages };
  const { links: current, ...rest } = lock;
  const links = withTableEntries(current ?? {}, change.links);
  return Object.keys(links).length === 0 ? { ...rest, packages } : { ...rest, packages, links };
}

/**
 * What the lock says for package `id` given a state: its kind, version, format, source (a local
 * folder inside `root` written relative to it, as `./…`), commit, index, digest, trust, audit verdict, whether it
 * is enabled and its requirements; `null` when the state does not hold it.
 */
export function lockEntryOf(state: ScopeState, id: string, root: string): LockedPackage | null {
  const record = state.installed[id];
  if (record === undefined) return null;
  const { source, commit, index, mirror } = record.origin;
  return {
    kind: record.kind,
    ...(record.version === undefined ? {} : { version: record.version }),
    format: record.format,
    source: mapSourceFolders(source, (path) => lockedPath(path, root)),
    ...(commit === undefined ? {} : { commit }),
    ...(index === undefined ? {} : { index }),
    ...(mirror === undefined ? {} : { mirror }),
    digest: record.contentDigest,
    trust: record.trust,
    ...(record.audit === undefined ? {} : { audit: record.audit }),
    ...(record.signer === undefined ? {} : { signer: record.signer }),
    enabled: !state.disabled.includes(id),
    requires: [...(record.requires ?? [])].sort(),
  };
}

/** What the lock pins for the link at `path` (relative to the scope's folder), from the state. */
export function lockLinkOf(state: ScopeState, path: string): LockedLink | null {
  const record = state.links?.[path];
  if (record === undefined) return null;
  const { digest: _machine, ...pinned } = record;
  return pinned;
}

/** The lock a state describes, whole. */
export function lockFromState(state: ScopeState, root: string): LockFile {
  const packages: Record<string, LockedPackage> = {};
  for (const id of Object.keys(state.installed).sort()) {
    const entry = lockEntryOf(state, id, root);
    if (entry !== null) packages[id] = entry;
  }
  const links = Object.keys(state.links ?? {})
    .sort()
    .map((path) => [path, lockLinkOf(state, path) as LockedLink] as const);
  return {
    version: 1,
    packages,
    ...(links.length === 0 ? {} : { links: Object.fromEntries(links) }),
  };
}

/** The same lock with package `id` set to `entry`, or left out when `entry` is `null`. */
export function withLockEntry(lock: LockFile, id: string, entry: LockedPackage | null): LockFile {
  return { ...lock, packages: withTableEntry(lock.packages, id, entry) };
}

/**
 * Tell `cache` what a writer has just written to a lock file: `text`, serialized from `lock`, a
 * lock read strictly and changed only through `withLockEntry` (see `keepWrittenState`).
 */
export function keepWrittenLock(
  cache: ScopeCache | undefined,
  path: string,
  text: string,
  lock: LockFile,
): void {
  cache?.keep(path, Buffer.from(text), { text, value: lock });
}

/** The text a lock is written as: canonical (sorted keys), two-space indent, final newline. */
export function serializeLockFile(lock: LockFile, cache?: ScopeCache): string {
  return cache === undefined
    ? canonicalJsonFile(lock)
    : canonicalJsonFileReusing(lock, cache.fragments, RECORD_DEPTH);
}

/**
 * The source a lock entry of `scope` pins, its local folders made absolute against the scope's
 * folder (the lock writes them relative to it, so a project's lock travels with its clone).
 */
export function lockedSource(
  environment: Environment,
  scope: PackageScope,
  entry: LockedPackage,
): LockedPackage["source"] {
  const root = lockRoot(environment, scope);
  return mapSourceFolders(entry.source, (path) => (isAbsolute(path) ? path : resolve(root, path)));
}

// --- internal ---

/** The lock entries of a step that committed its state and has not been settled yet. */
function committedLockChange(
  environment: Environment,
  scope: PackageScope,
  cache: ScopeCache | undefined,
): LockChange | undefined {
  const dir = packagesDir(environment, scope);
  if (!hasStepJournal(dir)) return undefined;
  const found = readStepJournal(dir, scope, [STEP_JOURNAL]);
  if (found === undefined || "unreadable" in found) return undefined;
  const state = readScopeState(environment, scope, cache);
  return state.ok && isStepCommitted(found.journal, state.value.text)
    ? found.journal.lock
    : undefined;
}

function lockedPath(path: string, root: string): string {
  if (!isAbsolute(path) || !isInside(root, path)) return path;
  const inner = relative(root, path).split(sep).join("/");
  return inner === "" ? "." : `./${inner}`;
}
