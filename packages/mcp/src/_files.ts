import { type Dirent, readdirSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import {
  compareText,
  MAX_WALK_DEPTH,
  readRegularFile,
  resolveContained,
  sha256,
} from "@skillshelf/core";
import type { Skill } from "@skillshelf/skills-loader";
import { SKILL_LIMITS } from "@skillshelf/sources/mcp-protocol";

/** One file of a served skill: its path inside the skill (`/`-separated) and where it really is. */
export interface SkillFile {
  readonly relative: string;
  readonly real: string;
}

/**
 * What a server keeps between two lists, keyed by what `stat` says (size, times, inode): a folder
 * whose stamp is unchanged is not read again, nor a file whose stamp is unchanged hashed again.
 * One per server; nothing is shared between two.
 */
export interface FileCache {
  /**
   * `sha256:<hex>` of the file at the real path `real` and its length in bytes (what the digest
   * covers), or `undefined` when it cannot be read.
   */
  content(real: string): FileContent | undefined;
  /** The entries of the folder at the real path `real`, in name order (empty when unreadable). */
  entries(real: string): readonly Dirent[];
}

/** What a listing says of one file's content. */
export interface FileContent {
  readonly digest: string;
  readonly size: number;
}

export function createFileCache(): FileCache {
  const contents = new Map<string, { readonly stamp: string; readonly content: FileContent }>();
  const folders = new Map<string, { readonly stamp: string; readonly entries: Dirent[] }>();
  return {
    content: (real) => {
      const stamp = stampOf(real, "file");
      if (stamp === undefined) return undefined;
      const hit = contents.get(real);
      if (hit?.stamp === stamp) return hit.content;
      const bytes = readFileBytes(real);
      if (bytes === undefined) return undefined;
      const content = { digest: `sha256:${sha256(bytes)}`, size: bytes.byteLength };
      contents.set(real, { stamp, content });
      return content;
    },
    entries: (real) => {
      const stamp = stampOf(real, "folder");
      if (stamp === undefined) return [];
      const hit = folders.get(real);
      if (hit?.stamp === stamp) return hit.entries;
      let entries: Dirent[];
      try {
        entries = readdirSync(real, { withFileTypes: true }).sort((a, b) =>
          compareText(a.name, b.name),
        );
      } catch {
        return [];
      }
      folders.set(real, { stamp, entries });
      return entries;
    },
  };
}

/**
 * Every file of `skill` in name order, and every folder they are in: a folder skill's whole folder
 * (its skill file as `SKILL.md`), a loose skill file alone; the walk stops one file past SEP-2640's
 * limit (`SKILL_LIMITS.files`), which is enough to know the skill is over it. Names starting with `.` and `node_modules` are skipped, as
 * every loader skips them; a symlink is followed only when it stays inside the skill's folder, and
 * a folder is entered once.
 */
export function skillFiles(
  skill: Pick<Skill, "path" | "realPath">,
  cache: FileCache,
): { readonly files: SkillFile[]; readonly folders: readonly string[] } {
  const skillFile = { relative: "SKILL.md", real: skill.realPath };
  const own = basename(skill.path);
  // the loader resolved the skill file: its folder is the skill's, every link on the way followed
  const rootReal = dirname(skill.realPath);
  if (own.toLowerCase() !== "skill.md") return { files: [skillFile], folders: [rootReal] };
  const files: SkillFile[] = [skillFile];
  const entered = new Set([rootReal]);
  const visit = (real: string, relative: string, depth: number): void => {
    for (const entry of cache.entries(real)) {
      if (files.length > SKILL_LIMITS.files) return;
      const { name } = entry;
      if (name.startsWith(".") || name === "node_modules" || (relative === "" && name === own))
        continue;
      const inside = relative === "" ? name : `${relative}/${name}`;
      // a real folder and one name: no normalizing needed (path.join costs more than the stat)
      const target = followedInside(entry, `${real}/${name}`, rootReal);
      if (target === undefined) continue;
      if (target.kind === "file") files.push({ relative: inside, real: target.real });
      else if (depth < MAX_WALK_DEPTH && !entered.has(target.real)) {
        entered.add(target.real);
        visit(target.real, inside, depth + 1);
      }
    }
  };
  visit(rootReal, "", 0);
  // every folder entered, and the folder of each file a link led to
  for (const file of files) entered.add(dirname(file.real));
  return { files, folders: [...entered] };
}

/** The size in bytes of the file at `real` (0 when it is gone). */
export function fileSize(real: string): number {
  return statSync(real, { throwIfNoEntry: false })?.size ?? 0;
}

/**
 * The bytes of the regular file at `real`, opened without following a link (a file swapped for a
 * link after the walk is not read through it); `undefined` when it is gone or no longer a file.
 */
export function readFileBytes(real: string): Uint8Array | undefined {
  try {
    return readRegularFile(real, undefined, { noFollow: true });
  } catch {
    return undefined;
  }
}

// --- internal ---

/** What `stat` says of a file or folder as one string, or `undefined` when it is not one. */
function stampOf(path: string, kind: "file" | "folder"): string | undefined {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined || (kind === "file" ? !stats.isFile() : !stats.isDirectory()))
    return undefined;
  // numbers, not bigints: converting four bigints to text would cost more than the stat itself
  return `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}`;
}

function followedInside(
  entry: Dirent,
  path: string,
  rootReal: string,
): { readonly kind: "file" | "directory"; readonly real: string } | undefined {
  if (entry.isFile()) return { kind: "file", real: path };
  if (entry.isDirectory()) return { kind: "directory", real: path };
  if (!entry.isSymbolicLink()) return undefined;
  const resolved = resolveContained(path, rootReal);
  if (resolved.status !== "inside") return undefined;
  const target = statSync(resolved.real, { throwIfNoEntry: false });
  if (target?.isFile() === true) return { kind: "file", real: resolved.real };
  if (target?.isDirectory() === true) return { kind: "directory", real: resolved.real };
  return undefined;
}
