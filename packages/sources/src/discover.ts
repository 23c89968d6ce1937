import { existsSync } from "node:fs";
import {
  createDiagnostic,
  type Diagnostic,
  type Environment,
  identityKey,
  sortDiagnostics,
} from "@skillshelf/core";
import { readIndex } from "./index-file.js";
import { rowsFromRepository } from "./remote-index.js";
import {
  locateIndex,
  readScopeSources,
  type ScopeSource,
  scopeIndexPath,
  sourceName,
} from "./scope-sources.js";
import type { IndexOrigin, IndexRow, LibraryDiscovery } from "./types.js";

/** Which indexes `discoverLibrary` reads besides the scopes' own. */
export interface DiscoverOptions {
  /** The bundled example index, read first. */
  readonly bundled?: string | undefined;
  /** `--from` indexes, read last. */
  readonly from?: readonly string[] | undefined;
}

/**
 * Read every index an environment uses and merge their rows: the bundled index, the user scope's
 * `library.yaml` and `sources.json` indexes (a remote one from its last fetch, its relative plugin
 * sources made sources in its repository), the project scope's, then `from`. A later row
 * replaces an earlier one of the same `kind:name`. Rows come back sorted by `kind:name`; every
 * finding (a dropped row, a missing source) is kept. A scope's absent `library.yaml` is no error.
 */
export function discoverLibrary(
  environment: Environment,
  options: DiscoverOptions = {},
): LibraryDiscovery {
  const diagnostics: Diagnostic[] = [];
  const indexes: { path: string; origin: IndexOrigin }[] = [];
  const remotes = new Map<string, Extract<ScopeSource, { type: "remote" }>>();
  const want = (
    path: string | undefined,
    origin: IndexOrigin,
    named: string,
    remote?: Extract<ScopeSource, { type: "remote" }>,
  ) => {
    const located = path === undefined ? undefined : locateIndex(path);
    if (located !== undefined) {
      indexes.push({ path: located, origin });
      if (remote !== undefined) remotes.set(located, remote);
    } else if (path !== undefined)
      diagnostics.push(
        createDiagnostic(
          "warning",
          "index_missing",
          `${named} ${path} holds no index; it is skipped`,
          { path },
        ),
      );
  };
  if (options.bundled !== undefined) want(options.bundled, "bundled", "the bundled index");
  for (const scope of ["user", "project"] as const) {
    const own = scopeIndexPath(environment, scope);
    if (existsSync(own)) want(own, scope, `the ${scope} index`);
    const sources = readScopeSources(environment, scope);
    diagnostics.push(...sources.diagnostics);
    for (const source of sources.sources) {
      if (source.type === "path") want(source.path, scope, `the ${scope} source`);
      else if (locateIndex(source.cache) === undefined)
        diagnostics.push(
          createDiagnostic(
            "warning",
            "index_not_fetched",
            `the ${scope} source ${sourceName(source)} has not been fetched on this machine; it is skipped`,
          ),
        );
      else want(source.cache, scope, `the ${scope} source`, source);
    }
  }
  for (const path of options.from ?? []) want(path, "from", "the --from index");
  const merged = new Map<string, IndexRow>();
  for (const index of indexes) {
    const remote = remotes.get(index.path);
    const result = readIndex(
      index.path,
      index.origin,
      remote === undefined ? undefined : sourceName(remote),
    );
    diagnostics.push(...result.diagnostics);
    const rows = remote === undefined ? result.rows : rowsFromRepository(result.rows, remote);
    for (const row of rows) merged.set(identityKey(row.kind, row.name), row);
  }
  const rows = [...merged.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => row);
  return { rows, indexes, diagnostics: sortDiagnostics(diagnostics) };
}
