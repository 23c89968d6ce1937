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
 * the state is written, a marker `.<id>.lock-change.json` for each changed copy (and one
 * `.@links.lock-change.json` for the changed links) records the entries the lock will get, all
 * durable when this returns; after the lock is written the markers go. A marker found later (a
 * crash between the two writes) is settled by whoever holds the scope lock next: when the state
 * holds what the marker says, the lock gets those entries; otherwise the change never committed
 * and the lock is left as it is (it may be ahead of the state on purpose, after a teammate's pull).
 */
export function markLockChanges(
  target: ScopeTarget,
  changed: { readonly ids: readonly string[]; readonly links: readonly string[] },
  state: ScopeState,
  fault: FaultHook,
): LockChange {
  const dir = packagesDir(target.environment, target.scope);
  const root = lockRoot(target.environment, target.scope);
  const write = (path: string, value: unknown) =>
    writeScopeFile({
      path,
      text: `${JSON.stringify(value)}\n`,
      expected: undefined,
      fault,
      point: "lock-marker-temporary-written",
      syncFolder: false,
    });
  const packages = changed.ids.map((id): [string, LockedPackage | null] => {
    const entry = lockEntryOf(state, id, root);
    write(markerPath(dir, id), { version: 1, id, entry });
    return [id, entry];
  });
  const links = changed.links.map((path): [string, LockedLink | null] => [
    path,
    lockLinkOf(state, path),
  ]);
  if (links.length > 0) write(join(dir, LINKS_MARKER), { version: 1, links });
  syncFolder(dir);
  return { packages, links };
}

/**
 * Write a commit's lock entries into the scope's lock in one write (the whole lock from `state`
 * when there is no lock yet), write `packages/.gitignore` in a project the first time, and drop
 * the markers. A lock that no longer parses is left alone and reported (`lock_invalid`); its
 * markers stay, so the next writer tries again.
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
  for (const [id] of change.packages) rmSync(markerPath(dir, id), { force: true });
  if (change.links.length > 0) rmSync(join(dir, LINKS_MARKER), { force: true });
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
      const finished = finishLockChange(
        target,
        { packages: [[id, marker.entry]], links: [] },
        state,
      );
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
  if ((dotEntries ?? listDotEntries(dir)).includes(LINKS_MARKER))
    diagnostics.push(...settleLinksMarker(target, state, join(dir, LINKS_MARKER)));
  return diagnostics;
}

// --- internal ---

const MARKER = /^\.(.+)\.lock-change\.json$/;
// never a package's marker: `@links` is not a package id
const LINKS_MARKER = ".@links.lock-change.json";

function settleLinksMarker(target: ScopeTarget, state: ScopeState, path: string): Diagnostic[] {
  const value = readMarkerValue(path) as { links?: unknown } | undefined;
  const links = Array.isArray(value?.links) ? (value.links as unknown[]) : undefined;
  const pending = links?.every(
    (pair) =>
      Array.isArray(pair) &&
      typeof pair[0] === "string" &&
      canonicalJson(lockLinkOf(state, pair[0])) === canonicalJson(pair[1] ?? null),
  );
  if (links === undefined || pending !== true) {
    rmSync(path, { force: true });
    return [];
  }
  const change = { packages: [], links: links as [string, LockedLink | null][] };
  const finished = finishLockChange(target, change, state);
  return finished.length > 0
    ? finished
    : [
        createDiagnostic(
          "info",
          "lock_updated",
          "brought lock.json's links up to date after an interrupted operation",
          { path, details: { links: change.links.map(([link]) => link) } },
        ),
      ];
}

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
  const value = readMarkerValue(path) as { entry?: unknown } | undefined;
  return value?.entry === undefined ? undefined : { entry: value.entry as LockedPackage | null };
}

/** A marker's JSON when it is a version 1 marker, else `undefined`. */
function readMarkerValue(path: string): Record<string, unknown> | undefined {
  try {
    const parsed = parseJsonDocument(readRegularFile(path, 1024 * 1024).toString("utf8"));
    const value = parsed.ok ? (parsed.value as Record<string, unknown> | null) : undefined;
    return value?.version === 1 ? value : undefined;
  } catch {
    return undefined;
  }
}
