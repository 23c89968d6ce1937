import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  canonicalJson,
  createDiagnostic,
  type Diagnostic,
  isPackageId,
  parseJsonDocument,
  readRegularFile,
  syncFolder,
  writeFileAtomic,
} from "@skillshelf/core";
import { writeScopeFile } from "./_atomic.js";
import type { FaultHook } from "./_faults.js";
import { listDotEntries } from "./_journal.js";
import type { LockedPackage } from "./_lock-schema.js";
import {
  keepWrittenLock,
  lockEntryOf,
  lockFromState,
  lockRoot,
  readLockFile,
  serializeLockFile,
  withLockEntry,
} from "./lockfile.js";
import { packagesDir } from "./scopes.js";
import type { ScopeState, ScopeTarget } from "./types.js";

/**
 * The lock's part of a commit. `state.json` is the commit point; `lock.json` follows it. Before
 * the state is written, a marker `.<id>.lock-change.json` for each changed copy records the entry
 * the lock will get (all markers durable when this returns);
 * after the lock is written the marker goes. A marker found later (a crash between the two writes)
 * is settled by whoever holds the scope lock next: when the state holds what the marker says, the
 * lock gets that entry; otherwise the change never committed and the lock is left as it is (it may
 * be ahead of the state on purpose, after a teammate's pull).
 */
export function markLockChanges(
  target: ScopeTarget,
  ids: readonly string[],
  state: ScopeState,
  fault: FaultHook,
): [id: string, entry: LockedPackage | null][] {
  const dir = packagesDir(target.environment, target.scope);
  const root = lockRoot(target.environment, target.scope);
  const entries = ids.map((id): [string, LockedPackage | null] => {
    const entry = lockEntryOf(state, id, root);
    writeScopeFile({
      path: markerPath(dir, id),
      text: `${JSON.stringify({ version: 1, id, entry })}\n`,
      expected: undefined,
      fault,
      point: "lock-marker-temporary-written",
      syncFolder: false,
    });
    return [id, entry];
  });
  syncFolder(dir);
  return entries;
}

/**
 * Write each package's entry into the scope's lock in one write (the whole lock from `state` when
 * there is no lock yet), write `packages/.gitignore` in a project the first time, and drop the
 * markers. A lock that no longer parses is left alone and reported (`lock_invalid`); its markers
 * stay, so the next writer tries again.
 */
export function finishLockChange(
  target: ScopeTarget,
  entries: readonly (readonly [id: string, entry: LockedPackage | null])[],
  state: ScopeState,
): Diagnostic[] {
  const { environment, scope } = target;
  const current = readLockFile(environment, scope, target.cache);
  if (!current.ok) return [...current.diagnostics];
  const { path, value, text } = current.value;
  const lock =
    text === undefined
      ? lockFromState(state, lockRoot(environment, scope))
      : entries.reduce((lock, [id, entry]) => withLockEntry(lock, id, entry), value);
  const serialized = serializeLockFile(lock, target.cache);
  if (serialized !== text) {
    writeFileAtomic({ path, text: serialized, expected: text });
    // a first lock is built from the whole state; the next read parses it once
    if (text !== undefined) keepWrittenLock(target.cache, path, serialized, lock);
  }
  const dir = packagesDir(environment, scope);
  if (scope === "project" && !existsSync(join(dir, ".gitignore")))
    writeFileSync(join(dir, ".gitignore"), "*\n");
  for (const [id] of entries) rmSync(markerPath(dir, id), { force: true });
  return [];
}

/** Settle every lock marker of a scope against its (valid) state; see `markLockChanges`. */
export function settleLockChanges(
  target: ScopeTarget,
  state: ScopeState,
  dotEntries?: readonly string[],
): Diagnostic[] {
  const dir = packagesDir(target.environment, target.scope);
  const diagnostics: Diagnostic[] = [];
  for (const name of markerNames(dotEntries ?? listDotEntries(dir))) {
    const id = MARKER.exec(name)?.[1] as string;
    const marker = readMarker(join(dir, name));
    const root = lockRoot(target.environment, target.scope);
    if (
      marker !== undefined &&
      canonicalJson(lockEntryOf(state, id, root)) === canonicalJson(marker.entry)
    ) {
      const finished = finishLockChange(target, [[id, marker.entry]], state);
      diagnostics.push(...finished);
      if (finished.length === 0)
        diagnostics.push(
          createDiagnostic(
            "info",
            "lock_updated",
            `brought lock.json up to date for ${id} after an interrupted operation`,
            { path: join(dir, name), details: { id } },
          ),
        );
    } else rmSync(join(dir, name), { force: true });
  }
  return diagnostics;
}

// --- internal ---

const MARKER = /^\.(.+)\.lock-change\.json$/;

function markerPath(dir: string, id: string): string {
  return join(dir, `.${id}.lock-change.json`);
}

function markerNames(dotEntries: readonly string[]): string[] {
  return dotEntries.filter((name) => {
    const id = MARKER.exec(name)?.[1];
    return id !== undefined && isPackageId(id);
  });
}

function readMarker(path: string): { entry: LockedPackage | null } | undefined {
  try {
    const parsed = parseJsonDocument(readRegularFile(path, 64 * 1024).toString("utf8"));
    const value = parsed.ok ? (parsed.value as { version?: unknown; entry?: unknown }) : undefined;
    return value?.version === 1 && value.entry !== undefined
      ? { entry: value.entry as LockedPackage | null }
      : undefined;
  } catch {
    return undefined;
  }
}
