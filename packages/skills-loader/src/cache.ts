import type { Stats } from "node:fs";
import {
  createFolderListings,
  type Diagnostic,
  type FolderListings,
  isSavedFolderListing,
  isSettled,
  type SavedFolderListing,
  sameStamp,
} from "@skillshelf/core";
import type { SkillFileRecord } from "./_read-skill.js";
import type { SkillFields } from "./fields.js";
import { isMapping } from "./provenance.js";
import type { LoadSkillsResult, Skill } from "./types.js";

/** Counters of a skill cache, for hosts that want to see it working. */
export interface SkillCacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly entries: number;
}

/** @internal a skill built from a record under one root context, reused while both hold. */
interface BuiltSkill {
  readonly record: SkillFileRecord;
  readonly context: string;
  readonly skill: Skill;
  readonly diagnostics: readonly Diagnostic[];
}

/** @internal a load through the cache: what decides its result, and the result. */
interface LastLoad {
  readonly key: string;
  readonly candidates: readonly Skill[];
  readonly result: LoadSkillsResult;
}

/**
 * A stat-keyed cache of parsed skill files, created by the caller and passed to `loadSkills`. An
 * entry is reused while the file's real path, inode, size, mtime and ctime are unchanged, so
 * loading an unchanged tree again reads no skill file; it stats files, and folders whose listing
 * it kept while they were unchanged (it lists the others).
 * Unchanged skills come back as the same objects.
 */
export interface SkillCache {
  /** @internal the folder listings kept between loads. */
  readonly listings: FolderListings;
  /** @internal whether a record for `path` is kept (changed or not). */
  knows(path: string): boolean;
  /** @internal the record for `path` when the file is unchanged. */
  lookup(path: string, realPath: string, stats: Stats): SkillFileRecord | undefined;
  /**
   * @internal whether the host knows `folder` unchanged since its files were last seen (the
   * cache's `unchanged` option): a skill file there the cache knows is taken without a stat.
   */
  unchanged(folder: string): boolean;
  /** @internal the record for `path` at `realPath`, taken as it is (its folder is unchanged). */
  steady(path: string, realPath: string): SkillFileRecord | undefined;
  /** @internal remember a record. */
  store(path: string, record: SkillFileRecord): void;
  /** @internal the skill last built for `path`. */
  built(path: string): BuiltSkill | undefined;
  /** @internal remember the skill built for `path`. */
  remember(path: string, built: BuiltSkill): void;
  /** @internal the last load's skills before clashes were resolved, its findings' key, its result. */
  lastLoad(): LastLoad | undefined;
  /** @internal remember a load's result. */
  rememberLoad(load: LastLoad): void;
  stats(): SkillCacheStats;
  /**
   * The records this cache was asked for or given since it was created, as plain data to keep
   * for a later process (`createSkillCache({ saved })`): a file changed within `racyMs` (default
   * 2 s) of `now` is left out, since a change in the same tick of the file system's clock could
   * leave its stamp as it was (git's racily clean entries), and so is a record whose values plain
   * data would not give back exactly (a refused file, a body, a value JSON cannot hold).
   */
  save(options?: { readonly now?: number; readonly racyMs?: number }): SavedSkillCache;
  clear(): void;
}

/**
 * Records of a skill cache as plain data (`SkillCache.save`), tagged with the `version` of the
 * code that parsed them: records saved by another version are not taken.
 */
export interface SavedSkillCache {
  readonly format: 1;
  readonly version: string;
  readonly records: readonly (readonly [path: string, record: SavedSkillRecord])[];
  readonly listings: readonly SavedFolderListing[];
}

/**
 * A skill file's record as saved: what a read of its frontmatter alone gives (never the body,
 * nor the hash of the whole file that only a read of the body has).
 */
export type SavedSkillRecord = Pick<SkillFileRecord, "diagnostics"> & {
  readonly signature: NonNullable<SkillFileRecord["signature"]>;
  readonly fields: SkillFields;
};

/**
 * Create a cache holding at most `maxEntries` files (the oldest dropped first): empty, or with
 * the records and listings another cache of the same `version` saved (`saved`).
 * @example
 * const cache = createSkillCache();
 * loadSkills({ cache }); // reads every skill
 * loadSkills({ cache }); // reads none that did not change
 */
export function createSkillCache(
  options: {
    readonly maxEntries?: number;
    /** Records a cache of another process saved, taken when `version` is theirs. */
    readonly saved?: unknown;
    readonly version?: string;
    /**
     * Whether a folder is known unchanged since the files in it were last seen, by something
     * that would have seen any change (a folder watch that saw nothing: `skillshelf mcp`'s). A
     * skill file the cache knows in such a folder is taken without a stat. Default: none is.
     */
    readonly unchanged?: ((folder: string) => boolean) | undefined;
  } = {},
): SkillCache {
  const maxEntries = options.maxEntries ?? 50_000;
  const saved = restored(options.saved, options.version);
  const records = saved.records;
  // what this cache was asked for or given: what `save` keeps
  const used = new Set<string>();
  const skills = new Map<string, BuiltSkill>();
  let hits = 0;
  let misses = 0;
  let last: LastLoad | undefined;
  const listings = createFolderListings({ maxFolders: maxEntries, saved: saved.listings });
  return {
    listings,
    knows: (path) => records.has(path),
    unchanged: (folder) => options.unchanged?.(folder) === true,
    steady(path, realPath) {
      const record = records.get(path);
      if (record?.signature?.realPath !== realPath) return undefined;
      used.add(path);
      hits += 1;
      return record;
    },
    lookup(path, realPath, stats) {
      used.add(path);
      const record = records.get(path);
      const signature = record?.signature;
      const same =
        signature !== undefined && signature.realPath === realPath && sameStamp(signature, stats);
      if (same) hits += 1;
      else misses += 1;
      return same ? record : undefined;
    },
    store(path, record) {
      used.add(path);
      records.delete(path);
      records.set(path, record);
      if (records.size > maxEntries) {
        const oldest = records.keys().next().value as string;
        records.delete(oldest);
        skills.delete(oldest);
        used.delete(oldest);
      }
    },
    built: (path) => skills.get(path),
    remember(path, built) {
      if (records.has(path)) skills.set(path, built);
    },
    lastLoad: () => last,
    rememberLoad(load) {
      last = load;
    },
    stats: () => ({ hits, misses, entries: records.size }),
    save(saving = {}) {
      const now = saving.now ?? Date.now();
      const kept: [string, SavedSkillRecord][] = [];
      for (const path of used) {
        const record = records.get(path);
        const saved = record === undefined ? undefined : savedRecord(record, now, saving.racyMs);
        if (saved !== undefined) kept.push([path, saved]);
      }
      return {
        format: 1,
        version: options.version ?? "",
        records: kept,
        listings: listings.save(),
      };
    },
    clear() {
      listings.clear();
      records.clear();
      skills.clear();
      last = undefined;
      used.clear();
      hits = 0;
      misses = 0;
    },
  };
}

// --- internal ---

function savedRecord(
  record: SkillFileRecord,
  now: number,
  racyMs: number | undefined,
): SavedSkillRecord | undefined {
  const { signature, fields, diagnostics } = record;
  if (signature === undefined || fields === undefined) return undefined;
  if (!isSettled(signature, now, racyMs)) return undefined;
  const saved = { signature, fields, diagnostics };
  return isPlainData(saved) ? saved : undefined;
}

/**
 * Whether JSON gives `value` back exactly: text, finite numbers other than -0, booleans and null,
 * in dense arrays and objects of the plain prototype with no undefined property.
 */
function isPlainData(value: unknown): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object": {
      if (value === null) return true;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return false;
        for (let index = 0; index < value.length; index++)
          if (!(index in value) || !isPlainData(value[index])) return false;
        return Object.keys(value).length === value.length;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      if (Object.getOwnPropertySymbols(value).length > 0) return false;
      for (const key of Object.keys(value)) {
        const entry = (value as Record<string, unknown>)[key];
        if (entry === undefined || !isPlainData(entry)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/**
 * The records and listings of a saved cache, when it is one this code saved (`version`); none
 * otherwise. A saved cache whose shape is wrong anywhere is taken as none.
 */
function restored(
  saved: unknown,
  version: string | undefined,
): { records: Map<string, SkillFileRecord>; listings: SavedFolderListing[] } {
  const none = { records: new Map<string, SkillFileRecord>(), listings: [] };
  if (!isMapping(saved) || saved.format !== 1 || saved.version !== (version ?? "")) return none;
  const { records, listings } = saved;
  if (!Array.isArray(records) || !Array.isArray(listings) || !listings.every(isSavedFolderListing))
    return none;
  const taken = new Map<string, SkillFileRecord>();
  for (const entry of records as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== "string") return none;
    const record = restoredRecord(entry[1]);
    if (record === undefined) return none;
    taken.set(entry[0], record);
  }
  return { records: taken, listings };
}

function restoredRecord(value: unknown): SkillFileRecord | undefined {
  if (!isMapping(value)) return undefined;
  const { signature, fields, diagnostics } = value;
  if (!isMapping(signature) || typeof signature.realPath !== "string") return undefined;
  if (!STAMP_KEYS.every((key) => typeof signature[key] === "number")) return undefined;
  if (!isMapping(fields) || typeof fields.name !== "string") return undefined;
  if (typeof fields.description !== "string" || !isMapping(fields.frontmatter)) return undefined;
  if (typeof fields.addressable !== "boolean") return undefined;
  if (typeof fields.disableModelInvocation !== "boolean") return undefined;
  if (typeof fields.userInvocable !== "boolean") return undefined;
  if (!Array.isArray(fields.requires) || !Array.isArray(diagnostics)) return undefined;
  return {
    signature: signature as unknown as SkillFileRecord["signature"],
    hash: undefined,
    fields: fields as unknown as SkillFields,
    body: undefined,
    diagnostics: diagnostics as Diagnostic[],
  };
}

const STAMP_KEYS = ["ino", "size", "mtimeMs", "ctimeMs"] as const;
