import { join } from "node:path";
import type { Environment } from "@skillshelf/core";
import {
  inspectLinks,
  linkBase,
  linkLibrary,
  type PackageScope,
  readLockFile,
  readScopeState,
  type ScopeCache,
} from "@skillshelf/store";
import { type LinkRequest, linkResources, unlinkResources } from "@skillshelf/store/writers";
import { applyWrite, nameInFolder } from "./_link-write.js";
import type { LinkApplyResult } from "./link.js";

/**
 * Make a scope's links match its lock (after `restoreFromLock` has installed what it pins): each
 * link the lock lists that is not in place is made, each link the state records that the lock
 * no longer lists is taken away. `undefined` when they already match.
 */
export function restoreLinks(
  environment: Environment,
  scope: PackageScope,
  cache?: ScopeCache,
): LinkApplyResult | undefined {
  const lock = readLockFile(environment, scope, cache);
  const state = readScopeState(environment, scope, cache);
  if (!lock.ok || !state.ok) return undefined;
  const locked = lock.value.value.links ?? {};
  const recorded = state.value.state.links ?? {};
  const library = linkLibrary(environment, scope);
  const gone = Object.keys(recorded).filter((key) => locked[key] === undefined);
  if (gone.length > 0) {
    const taken = applyWrite(() => unlinkResources({ environment, scope, paths: gone }));
    if (taken.status !== "committed") return taken;
  }
  const wanted = Object.entries(locked).map(
    ([key, entry]): LinkRequest => ({
      agent: entry.agent,
      kind: entry.kind,
      target: join(library, entry.target),
      name: nameInFolder(scope, key, entry),
      package: entry.package,
      copy: entry.mode === "copy",
    }),
  );
  if (wanted.length === 0) return gone.length > 0 ? { status: "committed" } : undefined;
  const result = applyWrite(() => linkResources({ environment, scope, links: wanted }));
  const changed = result.result?.links.some((link) => link.status !== "unchanged") ?? true;
  return changed || gone.length > 0 ? result : undefined;
}

/**
 * The links where a scope differs from its lock: each the lock lists that is not recorded or is
 * gone from disk, and each recorded that the lock no longer lists (keys relative to the scope's
 * folder). `restoreLinks` brings exactly these in line.
 */
export function linksBehindLock(
  environment: Environment,
  scope: PackageScope,
  cache?: ScopeCache,
): string[] {
  const lock = readLockFile(environment, scope, cache);
  const state = readScopeState(environment, scope, cache);
  if (!lock.ok || !state.ok) return [];
  const locked = lock.value.value.links ?? {};
  const recorded = state.value.state.links ?? {};
  const base = linkBase(environment, scope);
  const missing = new Set(
    inspectLinks(environment, scope, cache)
      .faults.filter((fault) => fault.code === "link_missing")
      .map((fault) => fault.path),
  );
  return [...new Set([...Object.keys(locked), ...Object.keys(recorded)])]
    .filter(
      (key) =>
        locked[key] === undefined || recorded[key] === undefined || missing.has(join(base, key)),
    )
    .sort();
}
