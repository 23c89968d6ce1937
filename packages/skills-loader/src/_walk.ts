import { lstatSync, type Stats } from "node:fs";
import { basename, dirname, sep } from "node:path";
import {
  type Diagnostic,
  MAX_WALK_DEPTH,
  type ResourceRoot,
  type RootWalk,
  type WalkedFolder,
  walkRoot,
} from "@skillshelf/core";

/** A skill file found by the walk. */
export interface SkillLocation {
  /** As discovered, under the root. */
  readonly path: string;
  /** Every symlink resolved; inside the root's anchor. */
  readonly realPath: string;
  /** True for a loose `*.md` file at a root's top level. */
  readonly loose: boolean;
  /** True when the file is not named exactly `SKILL.md` (for example `SKILL.MD`). */
  readonly unusualName: boolean;
  /** The folder holding the file. */
  readonly baseDir: string;
  /** The name the skill defaults to: its folder's name, or a loose file's name without `.md`. */
  readonly subject: string;
  /** The file's stats when the walk already has them (saves the reader a system call). */
  readonly stats: Stats | undefined;
}

/** What a walk found, and whether two of its locations could be one file. */
export interface WalkResult {
  readonly locations: SkillLocation[];
  readonly diagnostics: Diagnostic[];
  readonly rootReal: string | undefined;
  readonly followedLinks: boolean;
}

/**
 * Find the skill files under one root with core's `walkRoot` (containment, links, skipped names
 * and the depth limit are its rules). A folder holding a `SKILL.md` (any case) is a skill and the
 * walk goes no deeper; loose `*.md` files count only at the root's top level; a file root is one
 * skill file.
 */
export function walkSkillRoot(root: ResourceRoot): WalkResult {
  const locations: SkillLocation[] = [];
  const walked = walkRoot(root, {
    maxDepth: MAX_WALK_DEPTH,
    // most folders under a root are skill folders: one lstat finds their SKILL.md without a listing
    enter: (folder, walk) => {
      const path = `${folder.path}${sep}SKILL.md`;
      const direct = quietLstat(path);
      if (direct?.isFile()) {
        locations.push(location(path, `${folder.real}${sep}SKILL.md`, folder, false, direct));
        return true;
      }
      if (!direct?.isSymbolicLink()) return false;
      linkedSkillFile(path, folder, walk, locations);
      return true;
    },
    // the folder's skill file under another spelling (`SKILL.MD`)
    listed: (folder, entries, walk) => {
      const entry = entries.find((candidate) => candidate.name.toLowerCase() === "skill.md");
      if (entry === undefined || !(entry.isFile() || entry.isSymbolicLink())) return false;
      const path = `${folder.path}${sep}${entry.name}`;
      if (entry.isFile())
        locations.push(location(path, `${folder.real}${sep}${entry.name}`, folder, false));
      else linkedSkillFile(path, folder, walk, locations);
      return true;
    },
    file: (file) => {
      if (file.folder === undefined) {
        const loose = file.name.toLowerCase() !== "skill.md";
        const baseDir = dirname(file.path);
        locations.push({
          ...location(file.path, file.real, { path: baseDir, name: basename(baseDir) }, loose),
          ...(loose ? { subject: stripMd(file.name) } : {}),
        });
      } else if (file.folder.depth === 0 && file.name.toLowerCase().endsWith(".md"))
        locations.push({
          ...location(file.path, file.real, file.folder, true),
          subject: stripMd(file.name),
        });
    },
  });
  return { ...walked, locations };
}

// --- internal ---

/** A linked skill file makes its folder a skill folder, even when the link is refused. */
function linkedSkillFile(
  path: string,
  folder: WalkedFolder,
  walk: RootWalk,
  locations: SkillLocation[],
): void {
  const target = walk.follow(path);
  if (target?.kind === "file") locations.push(location(path, target.real, folder, false));
}

function location(
  path: string,
  realPath: string,
  folder: Pick<WalkedFolder, "path" | "name">,
  loose: boolean,
  stats?: Stats,
): SkillLocation {
  return {
    path,
    realPath,
    baseDir: folder.path,
    subject: folder.name,
    loose,
    unusualName: !loose && !path.endsWith(`${sep}SKILL.md`),
    stats,
  };
}

/** The entry's own stats, or `undefined` when there is none or it cannot be read (the listing then reports it). */
function quietLstat(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function stripMd(file: string): string {
  return file.replace(/\.md$/i, "");
}
