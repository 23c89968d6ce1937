import { closeSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import {
  type FileStamp,
  isSettled,
  openRegularFile,
  sameStamp,
  siblingName,
} from "@skillshelf/core";
import { createSkillCache, type Skill, type SkillCache } from "@skillshelf/skills-loader";
import type { CommandContext } from "./context.js";
import type { CliIo } from "./io.js";

/** The skills a read command parsed, kept for its next run in the same project. */
export interface KeptSkills {
  readonly cache: SkillCache;
  /** What `list --all` learnt of whole files: each one's identity and hash, by path and stamp. */
  readonly contents: KeptContents;
  /** Keep what this run parsed, if it parsed anything; a cache that cannot be written is skipped. */
  save(): void;
}

/** A skill file's identity and sha256, while the file holds the stamp they were read at. */
export interface KeptContent {
  readonly identity: string;
  readonly hash: string;
}

export interface KeptContents {
  get(skill: Skill): KeptContent | undefined;
  set(skill: Skill, content: KeptContent): void;
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
  const kept = readKept(path);
  const cache = createSkillCache({ saved: kept?.skills, version });
  // contents are this build's too: what the parses were saved by
  const sameBuild = (kept?.skills as { version?: unknown } | undefined)?.version === version;
  const contents = keptContents(sameBuild ? kept?.contents : undefined);
  return {
    cache,
    contents,
    save() {
      if (cache.stats().misses === 0 && !contents.learnt()) return;
      const temporary = join(folder, siblingName(name, "tmp"));
      try {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        const saved = { skills: cache.save(), contents: contents.save() };
        writeFileSync(temporary, JSON.stringify(saved), { mode: 0o600, flag: "wx" });
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

/** A kept content as saved: the real path, the stamp, the identity and the hash. */
type SavedContent = readonly [
  realPath: string,
  stamp: readonly number[],
  identity: string,
  hash: string,
];

/**
 * The contents kept before (when every one is well formed; else none) and those learnt now. A
 * content is saved when its file is settled (unchanged for 2 s, the loader's racy margin), so a
 * change within the file system's clock tick is never hidden, and when this run used or learnt
 * it; a run that asked for no content (a listing without hashes) keeps every one it was given.
 */
function keptContents(saved: unknown): KeptContents & {
  learnt(): boolean;
  save(): SavedContent[];
} {
  const known = new Map<string, { stamp: FileStamp; content: KeptContent; used: boolean }>();
  if (Array.isArray(saved) && saved.every(isSavedContent))
    for (const [realPath, [ino, size, mtimeMs, ctimeMs], identity, hash] of saved)
      known.set(realPath, {
        stamp: { ino, size, mtimeMs, ctimeMs } as FileStamp,
        content: { identity, hash },
        used: false,
      });
  let learnt = false;
  let asked = false;
  return {
    get(skill) {
      asked = true;
      const entry = known.get(skill.realPath);
      if (entry === undefined || !sameStamp(entry.stamp, skill.stamp)) return undefined;
      entry.used = true;
      return entry.content;
    },
    set(skill, content) {
      known.set(skill.realPath, { stamp: skill.stamp, content, used: true });
      learnt = true;
    },
    learnt: () => learnt,
    save() {
      const kept: SavedContent[] = [];
      for (const [realPath, { stamp, content, used }] of known)
        if ((used || !asked) && isSettled(stamp))
          kept.push([
            realPath,
            [stamp.ino, stamp.size, stamp.mtimeMs, stamp.ctimeMs],
            content.identity,
            content.hash,
          ]);
      return kept;
    },
  };
}

function isSavedContent(value: unknown): value is SavedContent {
  if (!Array.isArray(value) || value.length !== 4) return false;
  const [realPath, stamp, identity, hash] = value as unknown[];
  return (
    typeof realPath === "string" &&
    Array.isArray(stamp) &&
    stamp.length === 4 &&
    stamp.every((part) => typeof part === "number") &&
    typeof identity === "string" &&
    typeof hash === "string"
  );
}

/** The kept file's data, when it is a plain file (no link) of this user no one else may write. */
function readKept(path: string): { skills?: unknown; contents?: unknown } | undefined {
  try {
    const opened = openRegularFile(path, { noFollow: true });
    try {
      const { stats } = opened;
      if ((stats.mode & 0o022) !== 0 || stats.uid !== (process.getuid?.() ?? stats.uid))
        return undefined;
      if (stats.size > MAX_KEPT_BYTES) return undefined;
      const data: unknown = JSON.parse(readFileSync(opened.fd, "utf8"));
      return typeof data === "object" && data !== null ? data : undefined;
    } finally {
      closeSync(opened.fd);
    }
  } catch {
    return undefined;
  }
}
