import { existsSync } from "node:fs";
import type { Environment } from "@skillshelf/core";
import {
  copiesOf,
  EMPTY_STATE,
  effectiveCopy,
  type InstallRecord,
  type LockedPackage,
  lockEntryOf,
  lockRoot,
  observeCopyFacts,
  type PackageScope,
  type PackageSnapshot,
  packagesDir,
  readLockFile,
  readScopeState,
  type ScopeCache,
  snapshotCopyFacts,
} from "@skillshelf/store";
import { refusal, refusalOf } from "./_refusal.js";
import type { Refusal, ReviewedFact } from "./types.js";

/** The other package scope. */
function peerScope(scope: PackageScope): PackageScope {
  return scope === "user" ? "project" : "user";
}

/**
 * The facts a step is reviewed against: its own copy, and the peer scope's copy of the same id
 * when that scope's packages folder exists (the writer then holds both locks). An unreadable
 * state is a refusal: nothing may be planned against it. A copy the plan's `snapshot` read is
 * taken as it found it.
 */
export function reviewFacts(
  environment: Environment,
  scope: PackageScope,
  id: string,
  cache?: ScopeCache,
  snapshot?: PackageSnapshot,
): { facts: ReviewedFact[] } | { refusal: Refusal } {
  const observed = (where: PackageScope) =>
    (snapshot === undefined ? undefined : snapshotCopyFacts(snapshot, where, id)) ??
    observeCopyFacts({ environment, scope: where, id, cache });
  try {
    const facts: ReviewedFact[] = [{ scope, id, facts: observed(scope) }];
    const peer = peerScope(scope);
    if (existsSync(packagesDir(environment, peer)))
      facts.push({ scope: peer, id, facts: observed(peer) });
    return { facts };
  } catch (error) {
    return { refusal: refusalOf(error) };
  }
}

/** Each scope's `lock.json`, read on first ask and kept: a plan reviews every step against one reading. */
export type LockReader = (scope: PackageScope) => ReturnType<typeof readLockFile>;

/** A `LockReader` of the scopes of `environment`. */
export function lockReader(environment: Environment, cache?: ScopeCache): LockReader {
  const read = new Map<PackageScope, ReturnType<typeof readLockFile>>();
  return (scope) => {
    const kept = read.get(scope) ?? readLockFile(environment, scope, cache);
    read.set(scope, kept);
    return kept;
  };
}

/** A scope's lock entry for `id` as the plan read the file (`null` when it pins nothing for it). */
export function lockedEntry(
  readLock: LockReader,
  scope: PackageScope,
  id: string,
): { entry: LockedPackage | null } | { refusal: Refusal } {
  const lock = readLock(scope);
  if (!lock.ok) {
    const [first] = lock.diagnostics;
    return {
      refusal: refusal("lock_invalid", first?.message ?? "lock.json cannot be read", {
        diagnostics: lock.diagnostics,
      }),
    };
  }
  return { entry: lock.value.value.packages[id] ?? null };
}

/** The lock entry a record would get. */
export function entryFor(
  environment: Environment,
  scope: PackageScope,
  id: string,
  record: InstallRecord,
  enabled: boolean,
): LockedPackage | null {
  const state = {
    ...EMPTY_STATE,
    installed: { [id]: record },
    disabled: enabled ? [] : [id],
  };
  return lockEntryOf(state, id, lockRoot(environment, scope));
}

/**
 * The ids a scope's lock pins that its state does not hold: a pull not yet installed. The lock is
 * read before the state: a writer commits the state before the lock, so every entry read is
 * already in a state read after it (no false alarm while another process installs).
 */
export function lockAhead(
  environment: Environment,
  scope: PackageScope,
  cache?: ScopeCache,
): string[] {
  const lock = readLockFile(environment, scope, cache);
  const state = readScopeState(environment, scope, cache);
  if (!lock.ok || !state.ok) return [];
  const installed = state.value.state.installed;
  return Object.keys(lock.value.value.packages).filter((id) => installed[id] === undefined);
}

/** The scope a change to an installed id applies to: the asked one, else the project copy's, else the user copy's. */
export function copyScope(
  snapshot: PackageSnapshot,
  id: string,
  asked: PackageScope | undefined,
): PackageScope | undefined {
  if (asked !== undefined) return asked;
  const copies = copiesOf(snapshot, id);
  if (copies.some((copy) => copy.scope === "project")) return "project";
  return copies.length > 0 ? "user" : undefined;
}

/** Which copy counts for `id` in a snapshot. */
export function effectiveOf(
  snapshot: PackageSnapshot,
  id: string,
): { scope: PackageScope; loadable: boolean } | null {
  const copy = effectiveCopy(snapshot, id);
  return copy === undefined ? null : { scope: copy.scope, loadable: copy.loadable };
}
