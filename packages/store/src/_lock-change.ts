import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  canonicalJson,
  createDiagnostic,
  type Diagnostic,
  isPackageId,
  parseJsonDocument,
  readRegularFile,
  writeFileAtomic,
} from "@skillshelf/core";
import { writeScopeFile } from "./_atomic.js";
import type { FaultHook } from "./_faults.js";
import { listDotEntries } from "./_journal.js";
import type { LockedLink, LockedPackage } from "./_lock-schema.js";
import {
  keepWrittenLock,
  lockEntryOf,
  lockFromState,
  lockLinkOf,
  lockRoot,
  readLockFile,
  serializeLockFile,
  withLockEntry,
  withLockLink,
} from "./lockfile.js";
import { packagesDir } from "./scopes.js";
import type { ScopeState, ScopeTarget } from "./types.js";

/** The lock entries one commit changes: packages by id, links by path (`null`: left out). */
export interface LockChange {
  readonly packages: readonly (readonly [id: string, entry: LockedPackage | null])[];
  readonly links: readonly (readonly [path: string, entry: LockedLink | null])[];
}

/**
 * The lock's part of a commit. `state.json` is the commit point; `lock.json` follows it. Before
 * the state is written, one marker `.@commit.lock-change.json` records every lock entry the
 * commit changes (packages and links), durable when this returns; after the lock is written the
 * marker goes. A marker found later (a crash between the two writes) is settled by whoever holds
 * the scope lock next: when the state holds what the marker says, the lock gets those entries;
 * otherwise the change never committed and the lock is left as it is (it may be ahead of the
 * state on purpose, after a teammate's pull).
 */
export function markLockChanges(
  target: ScopeTarget,
  changed: { readonly ids: readonly string[]; readonly links: readonly string[] },
  state: ScopeState,
  fault: FaultHook,
): LockChange {
  const dir = packagesDir(target.environment, target.scope);
  const root = lockRoot(target.environment, target.scope);
  const change: LockChange = {
    packages: changed.ids.map((id) => [id, lockEntryOf(state, id, root)]),
    links: changed.links.map((path) => [path, lockLinkOf(state, path)]),
  };
  writeScopeFile({
    path: join(dir, MARKER),
    text: `${JSON.stringify({ version: 1, ...change })}\n`,
    expected: undefined,
    fault,
    point: "lock-marker-temporary-written",
  });
  return change;
}

/**
 * Write a commit's lock entries into the scope's lock in one write (the whole lock from `state`
 * when there is no lock yet), write `packages/.gitignore` in a project the first time, and drop
 * the marker. A lock that no longer parses is left alone and reported (`lock_invalid`); the
 * marker stays, so the next writer tries again.
 */
export function finishLockChange(
  target: ScopeTarget,
  change: LockChange,
  state: ScopeState,
): Diagnostic[] {
  const { environment, scope } = target;
  const current = readLockFile(environment, scope, target.cache);
  if (!current.ok) return [...current.diagnostics];
  const { path, value, text } = current.value;
  const lock =
    text === undefined
      ? lockFromState(state, lockRoot(environment, scope))
      : change.links.reduce(
          (lock, [link, entry]) => withLockLink(lock, link, entry),
          change.packages.reduce((lock, [id, entry]) => withLockEntry(lock, id, entry), value),
        );
  const serialized = serializeLockFile(lock, target.cache);
  if (serialized !== text) {
    writeFileAtomic({ path, text: serialized, expected: text });
    // a first lock is built from the whole state; the next read parses it once
    if (text !== undefined) keepWrittenLock(target.cache, path, serialized, lock);
  }
  const dir = packagesDir(environment, scope);
  if (scope === "project" && !existsSync(join(dir, ".gitignore")))
    writeFileSync(join(dir, ".gitignore"), "*\n");
  rmSync(join(dir, MARKER), { force: true });
  return [];
}

/** Settle the lock marker a commit left in a scope against its (valid) state; see `markLockChanges`. */
export function settleLockChanges(
  target: ScopeTarget,
  state: ScopeState,
  dotEntries?: readonly string[],
): Diagnostic[] {
  const dir = packagesDir(target.environment, target.scope);
  const path = join(dir, MARKER);
  if (!(dotEntries ?? listDotEntries(dir)).includes(MARKER)) return [];
  const change = readMarker(path);
  const root = lockRoot(target.environment, target.scope);
  const same = (held: unknown, recorded: unknown) =>
    canonicalJson(held) === canonicalJson(recorded);
  if (
    change === undefined ||
    !change.packages.every(([id, entry]) => same(lockEntryOf(state, id, root), entry)) ||
    !change.links.every(([link, entry]) => same(lockLinkOf(state, link), entry))
  ) {
    // the change never committed (or the marker is not one this version wrote)
    rmSync(path, { force: true });
    return [];
  }
  const finished = finishLockChange(target, change, state);
  return finished.length > 0
    ? finished
    : [
        createDiagnostic(
          "info",
          "lock_updated",
          "brought lock.json up to date after an interrupted operation",
          {
            path,
            details: {
              ids: change.packages.map(([id]) => id),
              links: change.links.map(([link]) => link),
            },
          },
        ),
      ];
}

// --- internal ---

// `@` is in no package id, so the marker is never a copy's file
const MARKER = ".@commit.lock-change.json";

/** The lock change a marker records, when it is a version 1 marker of well-formed entries. */
function readMarker(path: string): LockChange | undefined {
  try {
    const parsed = parseJsonDocument(readRegularFile(path, 64 * 1024 * 1024).toString("utf8"));
    const value = parsed.ok ? (parsed.value as Record<string, unknown> | null) : undefined;
    const pairs = (field: unknown) =>
      Array.isArray(field) &&
      field.every(
        (pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === "string",
      );
    if (value?.version !== 1 || !pairs(value.packages) || !pairs(value.links)) return undefined;
    return {
      packages: (value.packages as [string, LockedPackage | null][]).filter(([id]) =>
        isPackageId(id),
      ),
      links: value.links as [string, LockedLink | null][],
    };
  } catch {
    return undefined;
  }
}
