import { type Dirent, lstatSync, readdirSync, type Stats } from "node:fs";
import { compareText } from "./diagnostics.js";
import { sameStamp } from "./read-file.js";

/**
 * Folder listings kept between walks, each while the folder's inode and times are unchanged:
 * adding, removing or renaming an entry moves a folder's times, so an unchanged folder lists as
 * before and is only stat-ed. Create one per cache (`walkRoot`'s `listings`).
 */
export interface FolderListings {
  /** The entries of the folder at `path` (its real path), sorted by name: kept, or listed now. */
  list(path: string): readonly Dirent[];
  /** Forget every listing. */
  clear(): void;
}

/**
 * An empty set of kept listings, holding at most `maxFolders` (the oldest dropped first). A
 * listing is kept only once its folder's last change is `racyMs` old (default 2 s; 0 keeps every
 * one): a change within the same tick of the file system's clock could leave the times as they
 * were (as with git's racily clean index entries).
 */
export function createFolderListings(
  options: { readonly maxFolders?: number; readonly racyMs?: number } = {},
): FolderListings {
  const maxFolders = options.maxFolders ?? 50_000;
  const racyMs = options.racyMs ?? 2_000;
  const kept = new Map<string, { readonly stats: Stats; readonly entries: readonly Dirent[] }>();
  return {
    list(path) {
      const stats = lstatSync(path, { throwIfNoEntry: false });
      const known = kept.get(path);
      if (known !== undefined && stats !== undefined && sameFolder(known.stats, stats))
        return known.entries;
      const entries = listSorted(path);
      kept.delete(path);
      if (
        stats?.isDirectory() === true &&
        (racyMs <= 0 || Date.now() - lastChange(stats) >= racyMs)
      ) {
        kept.set(path, { stats, entries });
        if (kept.size > maxFolders) kept.delete(kept.keys().next().value as string);
      }
      return entries;
    },
    clear: () => kept.clear(),
  };
}

/** A folder's entries, sorted by name (code units). Throws what `readdirSync` throws. */
export function listSorted(path: string): Dirent[] {
  return readdirSync(path, { withFileTypes: true }).sort((a, b) => compareText(a.name, b.name));
}

// --- internal ---

function sameFolder(one: Stats, other: Stats): boolean {
  return one.dev === other.dev && sameStamp(one, other);
}

function lastChange(stats: Stats): number {
  return Math.max(stats.mtimeMs, stats.ctimeMs);
}
