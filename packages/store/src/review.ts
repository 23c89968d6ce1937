import { existsSync } from "node:fs";
import type { Diagnostic, Environment, PackageScope } from "@skillshelf/core";
import type { ScopeCache } from "./cache.js";
import { observeCopyFacts, snapshotCopyFacts } from "./facts.js";
import { type LockedPackage, lockEntryOf, lockRoot, readLockFile } from "./lockfile.js";
import { packagesDir } from "./scopes.js";
import { copiesOf, effectiveCopy } from "./snapshot.js";
import { EMPTY_STATE, readScopeState } from "./state.js";
import type { CopyFacts, InstallRecord, PackageSnapshot } from "./types.js";

/** The facts of one copy a change is reviewed against; the writer checks them again in its lock. */
export interface ReviewedCopy {
  readonly scope: PackageScope;
  readonly id: string;
  readonly facts: CopyFacts;
}

/**
 * What a plan reads of the store to review its steps, each scope's lock read once on first ask:
 * the facts a writer re-checks, the lock entries before and after, what a lock pins that the
 * state does not hold. The lock arithmetic is the store's; a plan only asks.
 */
export interface StoreReview {
  /**
   * The copy of `id` in `scope`, and the peer scope's copy of it when that scope's packages
   * folder exists (the writer then holds both locks). A copy `snapshot` read is taken as it found
   * it. Throws `state_invalid` when a state cannot be read: nothing may be planned against it.
   */
  copies(scope: PackageScope, id: string, snapshot?: PackageSnapshot): ReviewedCopy[];
  /** `id`'s entry in `scope`'s lock as this review read it (`null`: none), or why the lock cannot be read. */
  lockEntry(
    scope: PackageScope,
    id: string,
  ): { readonly entry: LockedPackage | null } | { readonly diagnostics: readonly Diagnostic[] };
  /** The entry `scope`'s lock gets for `id` once `record` is installed there (`enabled` or not). */
  lockEntryAfter(
    scope: PackageScope,
    id: string,
    record: InstallRecord,
    enabled: boolean,
  ): LockedPackage | null;
  /**
   * The ids `scope`'s lock pins that its state does not hold: a pull not yet installed. Read
   * afresh, the lock before the state: a writer commits the state first, so every entry read is
   * already in a state read after it (no false alarm while another process installs).
   */
  lockAhead(scope: PackageScope): string[];
}

/** A review of the store of `environment`, its reads kept for one plan. */
export function createStoreReview(
  environment: Environment,
  cache?: ScopeCache | undefined,
): StoreReview {
  const locks = new Map<PackageScope, ReturnType<typeof readLockFile>>();
  const lockOf = (scope: PackageScope) => {
    const read = locks.get(scope) ?? readLockFile(environment, scope, cache);
    locks.set(scope, read);
    return read;
  };
  return {
    copies(scope, id, snapshot) {
      const observed = (where: PackageScope) =>
        (snapshot === undefined ? undefined : snapshotCopyFacts(snapshot, where, id)) ??
        observeCopyFacts({ environment, scope: where, id, cache });
      const copies: ReviewedCopy[] = [{ scope, id, facts: observed(scope) }];
      const peer = scope === "user" ? "project" : "user";
      if (existsSync(packagesDir(environment, peer)))
        copies.push({ scope: peer, id, facts: observed(peer) });
      return copies;
    },
    lockEntry(scope, id) {
      const lock = lockOf(scope);
      return lock.ok
        ? { entry: lock.value.value.packages[id] ?? null }
        : { diagnostics: lock.diagnostics };
    },
    lockEntryAfter(scope, id, record, enabled) {
      const state = { ...EMPTY_STATE, installed: { [id]: record }, disabled: enabled ? [] : [id] };
      return lockEntryOf(state, id, lockRoot(environment, scope));
    },
    lockAhead(scope) {
      const lock = readLockFile(environment, scope, cache);
      const state = readScopeState(environment, scope, cache);
      if (!lock.ok || !state.ok) return [];
      const installed = state.value.state.installed;
      return Object.keys(lock.value.value.packages).filter((id) => installed[id] === undefined);
    },
  };
}

/**
 * The scope a change to an installed `id` applies to: the one `asked`, else the project copy's,
 * else the user copy's (`undefined`: no copy).
 */
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

/** Which copy counts for `id` in a snapshot, and whether it loads (`null`: none). */
export function effectiveOf(
  snapshot: PackageSnapshot,
  id: string,
): { scope: PackageScope; loadable: boolean } | null {
  const copy = effectiveCopy(snapshot, id);
  return copy === undefined ? null : { scope: copy.scope, loadable: copy.loadable };
}
