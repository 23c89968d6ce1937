import { closeSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { openRegularFile, siblingName } from "@skillshelf/core";
import { createSkillCache, type SkillCache } from "@skillshelf/skills-loader";
import type { CommandContext } from "./context.js";
import type { CliIo } from "./io.js";

/** The skills a read command parsed, kept for its next run in the same project. */
export interface KeptSkills {
  readonly cache: SkillCache;
  /** Keep what this run parsed, if it parsed anything; a cache that cannot be written is skipped. */
  save(): void;
}

/** A kept file over this size is not read (a project of tens of thousands of skills). */
const MAX_KEPT_BYTES = 16 * 1_048_576;

/**
 * The skill cache of `list` in this project, kept between runs of one build of the bin
 * (`io.build`) in `$XDG_CACHE_HOME/skillshelf` (else `~/.cache/skillshelf`), one file per project
 * and home. An unchanged skill file is then only stat-ed (the loader's stat keys: real path,
 * inode, size, mtime, ctime), as within one process. The file is taken only when it is a plain
 * file of this user that no one else can write; anything else about it (missing, damaged, of
 * another build) is an empty cache. Nothing is kept without a build (tests, the library).
 */
export function keptSkills(context: CommandContext, io: CliIo): KeptSkills | undefined {
  const version = io.build;
  if (version === undefined) return undefined;
  const { environment } = context;
  const cacheHome = io.env.XDG_CACHE_HOME;
  const folder = join(
    cacheHome !== undefined && isAbsolute(cacheHome) ? cacheHome : join(environment.home, ".cache"),
    "skillshelf",
  );
  const name = `skills-${fileKey(`${environment.cwd}\0${environment.home}`)}.json`;
  const path = join(folder, name);
  const cache = createSkillCache({ saved: readKept(path), version });
  return {
    cache,
    save() {
      if (cache.stats().misses === 0) return;
      const temporary = join(folder, siblingName(name, "tmp"));
      try {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        writeFileSync(temporary, JSON.stringify(cache.save()), { mode: 0o600, flag: "wx" });
        renameSync(temporary, path);
      } catch {
        // a cache: the next run parses again
        rmSync(temporary, { force: true });
      }
    },
  };
}

// --- internal ---

/**
 * A short name for a project and home: two FNV-1a hashes of its UTF-16 code units (node:crypto
 * is not loaded for it: ~4 ms of a start). Two projects with one name would only share a file
 * whose records are each kept by path and stamp, so nothing wrong is ever read from it.
 */
function fileKey(text: string): string {
  let low = 0x811c9dc5;
  let high = 0xcbf29ce4;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    low = Math.imul(low ^ unit, 0x01000193);
    high = Math.imul(high ^ unit, 0x0100019d);
  }
  return `${(low >>> 0).toString(16).padStart(8, "0")}${(high >>> 0).toString(16).padStart(8, "0")}`;
}

/** The kept file's data, when it is a plain file (no link) of this user no one else may write. */
function readKept(path: string): unknown {
  try {
    const opened = openRegularFile(path, { noFollow: true });
    try {
      const { stats } = opened;
      if ((stats.mode & 0o022) !== 0 || stats.uid !== (process.getuid?.() ?? stats.uid))
        return undefined;
      if (stats.size > MAX_KEPT_BYTES) return undefined;
      return JSON.parse(readFileSync(opened.fd, "utf8"));
    } finally {
      closeSync(opened.fd);
    }
  } catch {
    return undefined;
  }
}
