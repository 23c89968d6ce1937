import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
} from "node:fs";
import { basename, join } from "node:path";
import { MAX_WALK_DEPTH, realpathOrUndefined, resolveContained, sha256 } from "@skillshelf/core";
import type { Skill } from "@skillshelf/skills-loader";

/** One file of a served skill: its path inside the skill (`/`-separated) and where it really is. */
export interface SkillFile {
  readonly relative: string;
  readonly real: string;
}

/** The most files one skill serves; a folder holding more is served up to this many, in name order. */
export const MAX_SKILL_FILES = 10_000;

/**
 * Every file of `skill` in name order: a folder skill's whole folder (its skill file as
 * `SKILL.md`), a loose skill file alone. Names starting with `.` and `node_modules` are skipped, as
 * every loader skips them; a symlink is followed only when it stays inside the skill's folder, and
 * a folder is entered once.
 */
export function skillFiles(skill: Pick<Skill, "path" | "realPath" | "baseDir">): SkillFile[] {
  const skillFile = { relative: "SKILL.md", real: skill.realPath };
  if (basename(skill.path).toLowerCase() !== "skill.md") return [skillFile];
  const rootReal = realpathOrUndefined(skill.baseDir);
  if (rootReal === undefined) return [skillFile];
  const files: SkillFile[] = [skillFile];
  const entered = new Set([rootReal]);
  const visit = (real: string, relative: string, depth: number): void => {
    for (const name of readdirSync(real).sort()) {
      if (files.length >= MAX_SKILL_FILES) return;
      if (name.startsWith(".") || name === "node_modules") continue;
      const path = join(real, name);
      const inside = relative === "" ? name : `${relative}/${name}`;
      if (inside === basename(skill.path)) continue;
      const target = followedInside(path, rootReal);
      if (target === undefined) continue;
      if (target.kind === "file") files.push({ relative: inside, real: target.real });
      else if (depth < MAX_WALK_DEPTH && !entered.has(target.real)) {
        entered.add(target.real);
        visit(target.real, inside, depth + 1);
      }
    }
  };
  visit(rootReal, "", 0);
  return files;
}

/**
 * sha256 digests keyed by what `stat` says of a file (size, times, inode): an unchanged file is
 * never read twice. One per server; nothing is shared between two.
 */
export interface DigestCache {
  /** `sha256:<hex>` of the file at the real path `real`, or `undefined` when it cannot be read. */
  digest(real: string): string | undefined;
}

export function createDigestCache(): DigestCache {
  const known = new Map<string, { readonly stamp: string; readonly digest: string }>();
  return {
    digest: (real) => {
      const stats = statSync(real, { bigint: true, throwIfNoEntry: false });
      if (stats === undefined || !stats.isFile()) return undefined;
      const stamp = `${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}:${stats.ino}`;
      const hit = known.get(real);
      if (hit?.stamp === stamp) return hit.digest;
      const bytes = readFileBytes(real);
      if (bytes === undefined) return undefined;
      const digest = `sha256:${sha256(bytes)}`;
      known.set(real, { stamp, digest });
      return digest;
    },
  };
}

/**
 * The bytes of the regular file at `real`, opened without following a link (a file swapped for a
 * link after the walk is not read through it); `undefined` when it is gone or no longer a file.
 */
export function readFileBytes(real: string): Uint8Array | undefined {
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    const bytes = new Uint8Array(stats.size);
    let filled = 0;
    while (filled < bytes.length) {
      const read = readSync(fd, bytes, filled, bytes.length - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return filled === bytes.length ? bytes : bytes.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}

// --- internal ---

function followedInside(
  path: string,
  rootReal: string,
): { readonly kind: "file" | "directory"; readonly real: string } | undefined {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return undefined;
  if (stats.isFile()) return { kind: "file", real: path };
  if (stats.isDirectory()) return { kind: "directory", real: path };
  if (!stats.isSymbolicLink()) return undefined;
  const resolved = resolveContained(path, rootReal);
  if (resolved.status !== "inside") return undefined;
  const target = statSync(resolved.real, { throwIfNoEntry: false });
  if (target?.isFile() === true) return { kind: "file", real: resolved.real };
  if (target?.isDirectory() === true) return { kind: "directory", real: resolved.real };
  return undefined;
}
