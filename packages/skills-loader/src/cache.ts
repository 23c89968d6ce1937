import type { SkillFileRecord } from "./_read-skill.js";

/** Counters of a skill cache, for hosts that want to see it working. */
export interface SkillCacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly entries: number;
}

/**
 * A stat-keyed cache of parsed skill files, created by the caller and passed to `loadSkills`. An
 * entry is reused while the file's inode, size, mtime and ctime are unchanged, so loading an
 * unchanged tree again reads no skill file; it only lists folders and stats files.
 */
export interface SkillCache {
  /** @internal the record for `path` when its stat signature still matches. */
  lookup(path: string, signature: string): SkillFileRecord | undefined;
  /** @internal remember a record. */
  store(path: string, record: SkillFileRecord): void;
  stats(): SkillCacheStats;
  clear(): void;
}

/**
 * Create an empty cache holding at most `maxEntries` files (least recently used dropped first).
 * @example
 * const cache = createSkillCache();
 * loadSkills({ cache }); // reads every skill
 * loadSkills({ cache }); // reads none that did not change
 */
export function createSkillCache(options: { readonly maxEntries?: number } = {}): SkillCache {
  const maxEntries = options.maxEntries ?? 50_000;
  const entries = new Map<string, SkillFileRecord>();
  let hits = 0;
  let misses = 0;
  return {
    lookup(path, signature) {
      const record = entries.get(path);
      if (record === undefined || record.signature !== signature) {
        misses += 1;
        return undefined;
      }
      hits += 1;
      entries.delete(path);
      entries.set(path, record);
      return record;
    },
    store(path, record) {
      entries.delete(path);
      entries.set(path, record);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
    stats: () => ({ hits, misses, entries: entries.size }),
    clear() {
      entries.clear();
      hits = 0;
      misses = 0;
    },
  };
}
