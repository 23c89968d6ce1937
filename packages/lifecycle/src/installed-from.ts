import { isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import { canonicalJson, type Environment, isInside, type PackageSource } from "@skillshelf/core";
import { type PackageScope, readScopeState, type ScopeCache } from "@skillshelf/store";

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

/** Whether an installed copy's source is `named`'s origin (`named`'s place worked out once). */
function sameOriginAs(named: PackageSource): (installed: PackageSource) => boolean {
  const place = where(named);
  return (installed) => {
    if (named.type === "local" && installed.type === "git") {
      const folder = localRepository(installed.url);
      return folder !== undefined && isInside(named.path, folder);
    }
    if (installed.type !== named.type) return false;
    if (installed.type === "local" && named.type === "local")
      return isInside(named.path, installed.path);
    return where(installed) === place;
  };
}

/** A source's fields that do not say where inside it, as canonical JSON. */
function where(source: PackageSource): string {
  return canonicalJson(
    Object.fromEntries(Object.entries(source).filter(([key]) => !PLACE_ONLY.has(key))),
  );
}

/** The folder of a repository on this machine (a path or a `file:` URL), else `undefined`. */
function localRepository(url: string): string | undefined {
  if (url.startsWith("file:")) {
    try {
      return fileURLToPath(url);
    } catch {
      return undefined;
    }
  }
  return isAbsolute(url) ? url : undefined;
}
