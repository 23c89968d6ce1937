import { join } from "node:path";
import { type Environment, type PackageScope, scopeLibraryDir } from "@skillshelf/core";
import { lockedLinksBehind, type ScopeCache } from "@skillshelf/store";
import { type LinkRequest, linkResources, unlinkResources } from "@skillshelf/store/writers";
import { applyWrite, type LinkApplyResult, nameInFolder } from "./_link-write.js";

/**
 * Make a scope's links match its lock (after `restoreFromLock` has installed what it pins): the
 * links `linksBehindLock` finds are brought in line, each the lock lists made, each only the state
 * records taken away. `undefined` when they already match.
 */
export function restoreLinks(
  environment: Environment,
  scope: PackageScope,
  cache?: ScopeCache,
): LinkApplyResult | undefined {
  const behind = lockedLinksBehind(environment, scope, cache);
  if (behind === undefined || behind.keys.length === 0) return undefined;
  const { keys, locked } = behind;
  const gone = keys.filter((key) => locked[key] === undefined);
  if (gone.length > 0) {
    const taken = applyWrite(() => unlinkResources({ environment, scope, paths: gone }));
    if (taken.status !== "committed") return taken;
  }
  const library = scopeLibraryDir(environment, scope);
  const wanted = keys.flatMap((key): LinkRequest[] => {
    const entry = locked[key];
    if (entry === undefined) return [];
    return [
      {
        agent: entry.agent,
        kind: entry.kind,
        target: join(library, entry.target),
        name: nameInFolder(scope, key, entry),
        package: entry.package,
        copy: entry.mode === "copy",
        bare: entry.bare,
      },
    ];
  });
  if (wanted.length === 0) return { status: "committed" };
  return applyWrite(() => linkResources({ environment, scope, links: wanted }));
}

/**
 * The links where a scope differs from its lock (keys relative to the scope's folder): each the
 * lock lists that is not recorded, is recorded otherwise, or is gone from disk, and each recorded
 * that the lock no longer lists. `restoreLinks` brings exactly these in line.
 */
export function linksBehindLock(
  environment: Environment,
  scope: PackageScope,
  cache?: ScopeCache,
): string[] {
  return lockedLinksBehind(environment, scope, cache)?.keys ?? [];
}
