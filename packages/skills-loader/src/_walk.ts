import { closeSync, lstatSync, type Stats } from "node:fs";
import { basename, dirname, sep } from "node:path";
import {
  type Diagnostic,
  errnoCode,
  type FolderEntry,
  type FolderListings,
  isSkillshelfError,
  MAX_WALK_DEPTH,
  type OpenedFile,
  openRegularFile,
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
  /** Its folder is known unchanged (`SkillWalkVisitor.unchanged`): the cache's record stands. */
  readonly steady?: true | undefined;
  /** The file, opened by the walk for the reader while the location is visited. */
  readonly opened?: OpenedFile | undefined;
}

/** What a walk does with what it finds. */
export interface SkillWalkVisitor {
  /** Each skill file, in walk order; `location.opened` is closed once this returns. */
  readonly found: (location: SkillLocation) => void;
  /** Whether a cache knows `path`: such a file is only stat-ed, so an unchanged one is not opened. */
  readonly known?: ((path: string) => boolean) | undefined;
  /** Whether a folder is known unchanged: a known skill file in it is not even stat-ed. */
  readonly unchanged?: ((folder: string) => boolean) | undefined;
  /** A cache's folder listings, used while each folder is unchanged. */
  readonly listings?: FolderListings | undefined;
}

/** What a walk found, and whether two of its locations could be one file. */
export interface WalkResult {
  /** How many skill files it handed to `visitor.found` (the locations are not kept). */
  readonly found: number;
  readonly diagnostics: Diagnostic[];
  readonly rootReal: string | undefined;
  readonly followedLinks: boolean;
}

/**
 * Find the skill files under one root with core's `walkRoot` (containment, links, skipped names
 * and the depth limit are its rules). A folder holding a `SKILL.md` (any case) is a skill and the
 * walk goes no deeper; loose `*.md` files count only at the root's top level; a file root is one
 * skill file. Each is handed to `visitor.found` as it is found: a `SKILL.md` the cache does not
 * know is opened at once (one system call finds and opens it) and read while it is open.
 */
export function walkSkillRoot(root: ResourceRoot, visitor: SkillWalkVisitor): WalkResult {
  // each location is handed on and let go: a walk of many skills keeps none of their stats alive
  let count = 0;
  const found = (skill: SkillLocation) => {
    count += 1;
    visitor.found(skill);
  };
  // whether the folder last entered at each depth was a skill folder
  const skillsAt: boolean[] = [];
  const walked = walkRoot(root, {
    maxDepth: MAX_WALK_DEPTH,
    listings: visitor.listings,
    // most folders under a root are skill folders: their SKILL.md is found without a listing
    enter: (folder, walk, list) => {
      const isSkill = enterSkillFolder(folder, walk, visitor, skillsAt[folder.depth], found, list);
      skillsAt[folder.depth] = isSkill;
      return isSkill;
    },
    // the folder's skill file under another spelling (`SKILL.MD`)
    listed: (folder, entries, walk) => {
      const entry = entries.find((candidate) => candidate.name.toLowerCase() === "skill.md");
      if (entry === undefined || !(entry.isFile() || entry.isSymbolicLink())) return false;
      const path = `${folder.path}${sep}${entry.name}`;
      if (entry.isFile()) found(location(path, `${folder.real}${sep}${entry.name}`, folder, false));
      else linkedSkillFile(path, folder, walk, found);
      return true;
    },
    file: (file) => {
      if (file.folder === undefined) {
        const loose = file.name.toLowerCase() !== "skill.md";
        const baseDir = dirname(file.path);
        found({
          ...location(file.path, file.real, { path: baseDir, name: basename(baseDir) }, loose),
          ...(loose ? { subject: stripMd(file.name) } : {}),
        });
      } else if (file.folder.depth === 0 && file.name.toLowerCase().endsWith(".md"))
        found({
          ...location(file.path, file.real, file.folder, true),
          subject: stripMd(file.name),
        });
    },
  });
  return { ...walked, found: count };
}

// --- internal ---

/** False when the folder's listing has no entry named `SKILL.md` in any case; true when it cannot be listed. */
function mayHoldSkillFile(list: () => readonly FolderEntry[]): boolean {
  try {
    return list().some((entry) => entry.name.toLowerCase() === "skill.md");
  } catch {
    // the walk lists it again and reports why it could not
    return true;
  }
}

/**
 * Whether `folder` is a skill folder, by its `SKILL.md` (handed to `found`). Where the folders
 * beside it are skill folders (`siblingsAreSkills` not false), the file is opened at once: one
 * system call finds and opens it. Where they are category folders, or a cache knows the file (so
 * an unchanged one is not opened), it is stat-ed first: a stat that finds nothing costs less than
 * an open that fails. Among category folders with a cache's listings, the folder's listing (kept
 * while the folder is unchanged, and the walk's next step anyway) says there is none.
 */
function enterSkillFolder(
  folder: WalkedFolder,
  walk: RootWalk,
  visitor: SkillWalkVisitor,
  siblingsAreSkills: boolean | undefined,
  found: (location: SkillLocation) => void,
  list: () => readonly FolderEntry[],
): boolean {
  if (siblingsAreSkills === false && visitor.listings !== undefined && !mayHoldSkillFile(list))
    return false;
  const path = `${folder.path}${sep}SKILL.md`;
  const real = `${folder.real}${sep}SKILL.md`;
  const known = visitor.known?.(path) === true;
  if (known && visitor.unchanged?.(folder.real) === true) {
    found({ ...location(path, real, folder, false), steady: true });
    return true;
  }
  const open = siblingsAreSkills !== false && !known;
  const opened = open ? openSkillFile(real) : undefined;
  if (opened === null) return false;
  if (opened !== undefined) {
    try {
      found(location(path, real, folder, false, opened.stats, opened));
    } finally {
      closeSync(opened.fd);
    }
    return true;
  }
  const direct = quietLstat(path);
  if (direct?.isFile()) {
    found(location(path, real, folder, false, direct));
    return true;
  }
  if (!direct?.isSymbolicLink()) return false;
  linkedSkillFile(path, folder, walk, found);
  return true;
}

/** A linked skill file makes its folder a skill folder, even when the link is refused. */
function linkedSkillFile(
  path: string,
  folder: WalkedFolder,
  walk: RootWalk,
  found: (location: SkillLocation) => void,
): void {
  const target = walk.follow(path);
  if (target?.kind === "file") found(location(path, target.real, folder, false));
}

function location(
  path: string,
  realPath: string,
  folder: Pick<WalkedFolder, "path" | "name">,
  loose: boolean,
  stats?: Stats,
  opened?: OpenedFile,
): SkillLocation {
  return {
    path,
    realPath,
    baseDir: folder.path,
    subject: folder.name,
    loose,
    unusualName: !loose && !path.endsWith(`${sep}SKILL.md`),
    stats,
    opened,
  };
}

/**
 * The regular file at `path`, opened (never through a link) with its stats; `null` when there is
 * none there (nothing, a folder, a FIFO, a socket or a device: the folder is then listed);
 * `undefined` when the open cannot tell (a link, which it refuses, or an error the stat of the
 * path reports).
 */
function openSkillFile(path: string): (OpenedFile & { readonly stats: Stats }) | null | undefined {
  try {
    return openRegularFile(path, { noFollow: true });
  } catch (error) {
    // `not_a_file`: something other than a regular file is there
    if (isSkillshelfError(error)) return null;
    const code = errnoCode(error);
    return code === "ENOENT" || code === "ENOTDIR" ? null : undefined;
  }
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
