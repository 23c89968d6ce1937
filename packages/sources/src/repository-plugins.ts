import { join, relative, sep } from "node:path";
import { type Diagnostic, isInside, type PackageSource } from "@skillshelf/core";
import { MARKETPLACE_FILES } from "./_collection-layouts.js";
import { sourceWithin } from "./fetchers/index.js";
import { readIndex } from "./index-file.js";
import type { FetchedSource } from "./types.js";

/** One plugin a repository's marketplace lists. */
export interface RepositoryPlugin {
  readonly name: string;
  readonly description: string;
  /** Where it is installed from: the repository's own source with its folder, or the one listed. */
  readonly source: PackageSource;
  /** Its folder inside the repository, `/`-separated, when it is kept there. */
  readonly folder?: string | undefined;
}

/**
 * The plugins the marketplace of a fetched repository lists (`MARKETPLACE_FILES`, the first found), each with the
 * source it installs from: a plugin kept in the repository is the repository's own source narrowed
 * to its folder, so the lock and `update` find it again; one kept elsewhere has the source listed.
 * `undefined` when the repository has no marketplace.
 */
export function repositoryPlugins(fetched: Pick<FetchedSource, "dir" | "source">):
  | {
      readonly marketplace: string;
      readonly plugins: readonly RepositoryPlugin[];
      readonly diagnostics: readonly Diagnostic[];
    }
  | undefined {
  for (const file of MARKETPLACE_FILES) {
    const read = readIndex(join(fetched.dir, file));
    if (read.diagnostics.some((finding) => finding.code === "index_unreadable")) continue;
    const plugins = read.rows.map((row): RepositoryPlugin => {
      const kept =
        row.source.type === "local" && isInside(fetched.dir, row.source.path)
          ? relative(fetched.dir, row.source.path).split(sep).join("/") || "."
          : undefined;
      return {
        name: row.name,
        description: row.description,
        source: kept === undefined ? row.source : sourceWithin(fetched.source, kept),
        ...(kept === undefined ? {} : { folder: kept }),
      };
    });
    return { marketplace: file, plugins, diagnostics: read.diagnostics };
  }
  return undefined;
}
