import type { Stats } from "node:fs";
import {
  createFolderListings,
  type Diagnostic,
  type FolderListings,
  sameStamp,
} from "@skillshelf/core";
import type { SkillFileRecord } from "./_read-skill.js";
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
  clear(): void;
}

/**
 * Create an empty cache holding at most `maxEntries` files (the oldest dropped first).
 * @example
 * const cache = createSkillCache();
 * loadSkills({ cache }); // reads every skill
 * loadSkills({ cache }); // reads none that did not change
 */
export function createSkillCache(options: { readonly maxEntries?: number } = {}): SkillCache {
  const maxEntries = options.maxEntries ?? 50_000;
  const records = new Map<string, SkillFileRecord>();
  const skills = new Map<string, BuiltSkill>();
  let hits = 0;
  let misses = 0;
  let last: LastLoad | undefined;
  const listings = createFolderListings({ maxFolders: maxEntries });
  return {
    listings,
    knows: (path) => records.has(path),
    lookup(path, realPath, stats) {
      const record = records.get(path);
      const signature = record?.signature;
      const same =
        signature !== undefined && signature.realPath === realPath && sameStamp(signature, stats);
      if (same) hits += 1;
      else misses += 1;
      return same ? record : undefined;
    },
    store(path, record) {
      records.delete(path);
      records.set(path, record);
      if (records.size > maxEntries) {
        const oldest = records.keys().next().value as string;
        records.delete(oldest);
        skills.delete(oldest);
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
    clear() {
      listings.clear();
      records.clear();
      skills.clear();
      last = undefined;
      hits = 0;
      misses = 0;
    },
  };
}
