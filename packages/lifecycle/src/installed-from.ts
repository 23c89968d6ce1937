import {
  canonicalJson,
  type Environment,
  isInside,
  type PackageScope,
  type PackageSource,
} from "@skillshelf/core";
import { folderInPlace, sourceFolderOnMachine } from "@skillshelf/sources";
import { readScopeState, type ScopeCache } from "@skillshelf/store";

// what a source names wherever it is narrowed, moved or pinned: the fields that do not say where
const PLACE_ONLY = new Set(["path", "ref", "digest", "integrity", "range", "sha256", "resource"]);

/**
 * The ids installed in `scope` from `source` (`--from`): the same repository, site, registry
 * repository, archive or npm package whatever folder, ref or version each came from; for a local
 * folder, every copy from it or a folder inside it, or from a git repository that is that folder.
 */
export function installedFrom(
  environment: Environment,
  scope: PackageScope,
  source: PackageSource,
  cache?: ScopeCache,
): string[] {
  const state = readScopeState(environment, scope, cache);
  if (!state.ok) return [];
  const fromNamed = sameOriginAs(source);
  return Object.entries(state.value.state.installed)
    .filter(([, record]) => fromNamed(record.origin.source))
    .map(([id]) => id)
    .sort();
}

// --- internal ---

/**
 * Whether an installed copy's source is `named`'s origin (`named`'s place worked out once): inside
 * the folder `named` is on this machine (a copy of it, or of a repository kept there), else the
 * same source but for the folder, ref or pin inside it.
 */
function sameOriginAs(named: PackageSource): (installed: PackageSource) => boolean {
  const place = where(named);
  const folder = folderInPlace(named);
  return (installed) => {
    if (folder !== undefined) {
      const inside = sourceFolderOnMachine(installed);
      return inside !== undefined && isInside(folder, inside);
    }
    return where(installed) === place;
  };
}

/** A source's fields that do not say where inside it, as canonical JSON. */
function where(source: PackageSource): string {
  return canonicalJson(
    Object.fromEntries(Object.entries(source).filter(([key]) => !PLACE_ONLY.has(key))),
  );
}
