import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { compareText } from "./diagnostics.js";
import { type FileStamp, isSettled, RACY_MS, sameStamp } from "./read-file.js";

/** One entry of a folder as a walk reads it: a `Dirent`, or an entry of a saved listing. */
export type FolderEntry = Pick<Dirent, "name" | "isFile" | "isDirectory" | "isSymbolicLink">;

/**
 * Folder listings kept between walks, each while the folder's inode and times are unchanged:
 * adding, removing or renaming an entry moves a folder's times, so an unchanged folder lists as
 * before and is only stat-ed. Create one per cache (`walkRoot`'s `listings`).
 */
export interface FolderListings {
  /** The entries of the folder at `path` (its real path), sorted by name: kept, or listed now. */
  list(path: string): readonly FolderEntry[];
  /** The kept listings of the folders listed since creation, as plain data to keep elsewhere. */
  save(): SavedFolderListing[];
  /** Forget every listing. */
  clear(): void;
}

/**
 * A kept listing as plain data: the folder's real path, its device and stamp, and its entries'
 * names and kinds (`f` file, `d` folder, `l` symlink, `o` anything else).
 */
export type SavedFolderListing = readonly [
  path: string,
  stamp: readonly [dev: number, ino: number, size: number, mtimeMs: number, ctimeMs: number],
  entries: readonly (readonly [name: string, kind: EntryKind])[],
];

type EntryKind = "f" | "d" | "l" | "o";

const ENTRY_KINDS: ReadonlySet<unknown> = new Set<EntryKind>(["f", "d", "l", "o"]);

/** Whether `value`, read back from elsewhere, has the shape of a `SavedFolderListing`. */
export function isSavedFolderListing(value: unknown): value is SavedFolderListing {
  if (!Array.isArray(value) || value.length !== 3 || typeof value[0] !== "string") return false;
  const [, stamp, entries] = value as [string, unknown, unknown];
  return (
    Array.isArray(stamp) &&
    stamp.length === 5 &&
    stamp.every((part) => typeof part === "number") &&
    Array.isArray(entries) &&
    entries.every(
      (entry) =>
        Array.isArray(entry) &&
        entry.length === 2 &&
        typeof entry[0] === "string" &&
        ENTRY_KINDS.has(entry[1]),
    )
  );
}

/**
 * An empty set of kept listings (or the `saved` ones), holding at most `maxFolders` (the oldest
 * dropped first). A listing is kept only once its folder's last change is `racyMs` old (default
 * 2 s; 0 keeps every one): a change within the same tick of the file system's clock could leave
 * the times as they were (as with git's racily clean index entries).
 */
export function createFolderListings(
  options: {
    readonly maxFolders?: number;
    readonly racyMs?: number;
    readonly saved?: readonly SavedFolderListing[];
  } = {},
): FolderListings {
  const maxFolders = options.maxFolders ?? 50_000;
  const racyMs = options.racyMs ?? RACY_MS;
  const kept = new Map<string, KeptListing>();
  for (const [path, [dev, ino, size, mtimeMs, ctimeMs], entries] of options.saved ?? [])
    kept.set(path, {
      stamp: { dev, ino, size, mtimeMs, ctimeMs },
      entries: entries.map(([name, kind]) => new SavedEntry(name, kind)),
      used: false,
    });
  return {
    list(path) {
      const stats = lstatSync(path, { throwIfNoEntry: false });
      const known = kept.get(path);
      if (known !== undefined && stats !== undefined && sameFolder(known.stamp, stats)) {
        known.used = true;
        return known.entries;
      }
      const entries = listSorted(path);
      kept.delete(path);
      if (stats?.isDirectory() === true && (racyMs <= 0 || isSettled(stats, Date.now(), racyMs))) {
        kept.set(path, { stamp: stats, entries, used: true });
        if (kept.size > maxFolders) kept.delete(kept.keys().next().value as string);
      }
      return entries;
    },
    save() {
      const saved: SavedFolderListing[] = [];
      for (const [path, listing] of kept) {
        if (!listing.used) continue;
        const { dev, ino, size, mtimeMs, ctimeMs } = listing.stamp;
        saved.push([path, [dev, ino, size, mtimeMs, ctimeMs], listing.entries.map(savedEntry)]);
      }
      return saved;
    },
    clear: () => kept.clear(),
  };
}

/** A folder's entries, sorted by name (code units). Throws what `readdirSync` throws. */
export function listSorted(path: string): Dirent[] {
  return readdirSync(path, { withFileTypes: true }).sort((a, b) => compareText(a.name, b.name));
}

// --- internal ---

interface FolderStamp extends FileStamp {
  readonly dev: number;
}

interface KeptListing {
  readonly stamp: FolderStamp;
  readonly entries: readonly FolderEntry[];
  /** Listed (or found unchanged) since the listings were created: what `save` keeps. */
  used: boolean;
}

/** An entry of a saved listing, answering as the `Dirent` it was made from. */
class SavedEntry implements FolderEntry {
  constructor(
    readonly name: string,
    private readonly kind: EntryKind,
  ) {}
  isFile(): boolean {
    return this.kind === "f";
  }
  isDirectory(): boolean {
    return this.kind === "d";
  }
  isSymbolicLink(): boolean {
    return this.kind === "l";
  }
}

function savedEntry(entry: FolderEntry): readonly [string, EntryKind] {
  const kind = entry.isFile()
    ? "f"
    : entry.isDirectory()
      ? "d"
      : entry.isSymbolicLink()
        ? "l"
        : "o";
  return [entry.name, kind];
}

function sameFolder(one: FolderStamp, other: FolderStamp): boolean {
  return one.dev === other.dev && sameStamp(one, other);
}
