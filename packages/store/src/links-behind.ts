import { join } from "node:path";
import { type Environment, type PackageScope, sameJson, scopeAnchor } from "@skillshelf/core";
import type { ScopeCache } from "./cache.js";
import { inspectLinks } from "./links.js";
import { type LockedLink, lockLinkOf, readLockFile } from "./lockfile.js";
import { readScopeState } from "./state.js";

/**
 * The links where a scope differs from its lock, keys relative to the scope's folder: each the
 * lock lists that is not recorded, is recorded otherwise, or is gone from disk (or is a copy of
 * ours left behind by what it copies), and each recorded that the lock no longer lists; with the
 * lock's entries (`locked`). `undefined` when the lock or the state cannot be read.
 */
export function lockedLinksBehind(
  environment: Environment,
  scope: PackageScope,
  cache?: ScopeCache,
): { keys: string[]; locked: Readonly<Record<string, LockedLink>> } | undefined {
  const lock = readLockFile(environment, scope, cache);
  const state = readScopeState(environment, scope, cache);
  if (!lock.ok || !state.ok) return undefined;
  const locked = lock.value.value.links ?? {};
  const current = state.value.state;
  const base = scopeAnchor(environment, scope);
  const missing = new Set(
    inspectLinks(environment, scope, cache)
      .faults.filter((fault) => fault.code === "link_missing" || fault.code === "copy_stale")
      .map((fault) => fault.path),
  );
  const keys = [...new Set([...Object.keys(locked), ...Object.keys(current.links ?? {})])]
    .filter(
      (key) =>
        !sameJson(lockLinkOf(current, key), locked[key] ?? null) || missing.has(join(base, key)),
    )
    .sort();
  return { keys, locked };
}
