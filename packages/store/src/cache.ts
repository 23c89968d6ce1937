import { digestTree, nullPrototypeRecord, restampTree, type TreeStamp } from "@skillshelf/core";
import type { PackageManifest } from "./types.js";

/**
 * Parsed `state.json` and `lock.json` files, each reused while the file's bytes (or its stamp)
 * are exactly what was parsed, package manifests by tree digest, and copies' tree digests while
 * their stamps hold. Reading a file's bytes stays cheap as a scope
 * grows; decoding and checking every record again does not, so a caller making many changes in
 * one process (a host, a long apply) passes one cache to every read and writer. Only good parses
 * are kept; nothing is kept between processes.
 */
export interface ScopeCache {
  /**
   * Manifests `readPackageManifest` read with no finding from a package tree, by the tree's
   * digest (which covers the manifest and everything it declares), with the folder it was read
   * in: a tree with the same digest elsewhere has the same manifest.
   */
  readonly manifests: Map<string, { readonly dir: string; readonly manifest: PackageManifest }>;
  /**
   * The text and value parsed from `bytes` at `path`, if this cache parsed exactly those bytes
   * there; `stamp` (what `lstat` says of the file) is then remembered with them.
   */
  reuse(path: string, bytes: Uint8Array, stamp?: string): CachedParse | undefined;
  /**
   * The parse kept for `path` when the file's `stamp` is the one remembered with it: a file whose
   * size, times, inode and device are unchanged is not read again.
   */
  unchanged(path: string, stamp: string): CachedParse | undefined;
  /** Keep a good parse of `bytes` (decoded as `text`) at `path`, read when the file's stamp was `stamp`. */
  keep(path: string, bytes: Uint8Array, parse: CachedParse, stamp?: string): void;
  /**
   * Tree digests by folder, with the folder's `stampTree` when it was digested: a copy whose
   * stamp is unchanged is not read again (`cachedTreeDigest`).
   */
  readonly trees: Map<string, KnownTree>;
  /**
   * Each scope folder's remembered copies (`.remembered.json`) as this process last read or wrote
   * them: the file is read once per command.
   */
  readonly remembered: Map<string, ReadonlyMap<string, RememberedTree>>;
  /** The written text of each kept record object, so a writer serialises only changed records. */
  readonly fragments: WeakMap<object, string>;
}

/** A tree's digest, and its stamp (`stampTree`) when it was read. */
export interface KnownTree extends TreeStamp {
  readonly digest: string;
  /** Its files' fingerprints (`digestTree`'s `listing`), when they were kept. */
  readonly listing?: Readonly<Record<string, string>> | undefined;
}

/** A copy as a read last found it: its tree, and the manifest read from it with no finding. */
export interface RememberedTree extends KnownTree {
  /** Its `manifestPath` relative to the tree. */
  readonly manifest?: PackageManifest | undefined;
}

/** A file's decoded text and the value parsed from it. */
export interface CachedParse {
  readonly text: string;
  readonly value: unknown;
}

/** A fresh, empty `ScopeCache` the caller owns. */
export function createScopeCache(): ScopeCache {
  const parsed = new Map<
    string,
    { readonly bytes: Buffer; readonly parse: CachedParse; stamp: string | undefined }
  >();
  return {
    reuse: (path, bytes, stamp) => {
      const entry = parsed.get(path);
      if (entry?.bytes.equals(bytes) !== true) return undefined;
      entry.stamp = stamp;
      return entry.parse;
    },
    unchanged: (path, stamp) => {
      const entry = parsed.get(path);
      return entry?.stamp === stamp ? entry.parse : undefined;
    },
    keep: (path, bytes, parse, stamp) => {
      // a writer keeps what it wrote before the file has a stamp: the next read compares bytes
      parsed.set(path, { bytes: Buffer.from(bytes), parse, stamp });
    },
    fragments: new WeakMap(),
    manifests: new Map(),
    trees: new Map(),
    remembered: new Map(),
  };
}

/**
 * A keyed table of `state.json` or `lock.json` (records by id) with `id` set to `value`, brought
 * to plain JSON as a strict read gives it (a fresh copy, `undefined` fields gone), or left out
 * when `value` is `null`; keyed with a null prototype, as read. Writers change their tables only
 * through it, so what they tell the cache is what a fresh read would give.
 */
export function withTableEntry<T>(
  table: Readonly<Record<string, T>>,
  id: string,
  value: NoInfer<T> | null,
): Record<string, T> {
  const copy = nullPrototypeRecord(table);
  if (value === null) delete copy[id];
  else copy[id] = JSON.parse(JSON.stringify(value)) as T;
  return copy;
}

/** `withTableEntry` for several entries at once: the table is copied once, not once per entry. */
export function withTableEntries<T>(
  table: Readonly<Record<string, T>>,
  entries: Iterable<readonly [id: string, value: NoInfer<T> | null]>,
): Record<string, T> {
  const copy = nullPrototypeRecord(table);
  for (const [id, value] of entries)
    if (value === null) delete copy[id];
    else copy[id] = JSON.parse(JSON.stringify(value)) as T;
  return copy;
}

/** How deep the records sit in `state.json` (`installed.<id>`) and `lock.json` (`packages.<id>`). */
export const RECORD_DEPTH = 2;

/** The tree `cache` knows at `dir`, if its nodes still have the stamp it was read under. */
export function heldTree(dir: string, cache: ScopeCache | undefined): KnownTree | undefined {
  const kept = cache?.trees.get(dir);
  return kept !== undefined && restampTree(dir, kept.nodes) === kept.stamp ? kept : undefined;
}

/**
 * `digestTree(dir).digest`, or with `cache` the digest kept for `dir` when its stamp (every
 * node's `lstat`) is unchanged: the nodes it covered are stamped again first, without listing a
 * folder, and only a tree whose stamp moved is walked, and read when that stamp is new.
 */
export function cachedTreeDigest(dir: string, cache: ScopeCache | undefined): string {
  if (cache === undefined) return digestTree(dir).digest;
  return heldTree(dir, cache)?.digest ?? freshTreeDigest(dir, cache);
}

/** `digestTree(dir).digest`, kept in `cache` with the stamp taken as it was read. */
export function freshTreeDigest(dir: string, cache: ScopeCache): string {
  // each node stamped before it is read: a change while reading leaves a stamp that no longer matches
  const { digest, stamp } = digestTree(dir, { stamp: true });
  if (stamp !== undefined) cache.trees.set(dir, { ...stamp, digest });
  return digest;
}
