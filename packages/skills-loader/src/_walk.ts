import { type Dirent, lstatSync, readdirSync, type Stats, statSync } from "node:fs";
import { basename, dirname, sep } from "node:path";
import {
  anchorRoot,
  compareText,
  createDiagnostic,
  type Diagnostic,
  followLink,
  isInside,
  type ResourceRoot,
  readFailed,
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

/** Folders below a root that the walk descends into at most. */
export const MAX_WALK_DEPTH = 12;

/**
 * Find the skill files under one root. A folder holding a `SKILL.md` is a skill and the walk does
 * not go deeper; names starting with `.` and `node_modules` are skipped; loose `*.md` files count
 * only at the root's top level; a symlink is followed only when its target stays inside the root's
 * anchor. A missing root yields nothing and no diagnostic.
 */
export function walkSkillRoot(root: ResourceRoot): WalkResult {
  const walk = new Walk();
  const anchored = anchorRoot(root);
  if (anchored.status === "missing") return walk;
  walk.rootReal = anchored.real;
  if (anchored.status === "refused") {
    walk.diagnostics.push(anchored.diagnostic);
    return walk;
  }
  const { real: rootReal, anchor: anchorReal } = anchored;
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(rootReal);
  } catch (error) {
    walk.diagnostics.push(readFailed(root.path, error));
    return walk;
  }
  if (stats.isFile()) {
    const file = basename(root.path);
    const loose = file.toLowerCase() !== "skill.md";
    const baseDir = dirname(root.path);
    walk.locations.push(
      location(root.path, rootReal, baseDir, loose ? stripMd(file) : basename(baseDir), loose),
    );
  } else if (stats.isDirectory()) {
    walk.visit(root.path, rootReal, basename(root.path), anchorReal, 0);
  }
  return walk;
}

// --- internal ---

class Walk {
  readonly locations: SkillLocation[] = [];
  readonly diagnostics: Diagnostic[] = [];
  /** The root's real path, once it is known to exist. */
  rootReal: string | undefined;
  /** Whether any symlink was followed: only then can two locations be one file. */
  followedLinks = false;
  /** Real folders entered through a link; a link is followed into each at most once. */
  readonly #linkedDirs = new Set<string>();

  visit(dir: string, dirReal: string, name: string, anchorReal: string, depth: number): void {
    let entries: Dirent[];
    try {
      // most folders under a root are skill folders: one lstat finds their SKILL.md without a listing
      const skillFile = `${dir}${sep}SKILL.md`;
      const direct = lstatSync(skillFile, { throwIfNoEntry: false });
      if (direct?.isFile()) {
        this.locations.push(
          location(skillFile, `${dirReal}${sep}SKILL.md`, dir, name, false, direct),
        );
        return;
      }
      if (direct?.isSymbolicLink()) {
        this.#visitLinkedSkillFile(skillFile, dir, name, anchorReal);
        return;
      }
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      this.diagnostics.push(readFailed(dir, error));
      return;
    }
    if (this.#visitSkillFile(dir, dirReal, name, anchorReal, entries)) return;
    if (depth >= MAX_WALK_DEPTH) {
      this.diagnostics.push(
        createDiagnostic(
          "info",
          "walk_depth_limit",
          `stopped looking for skills ${MAX_WALK_DEPTH} folders deep`,
          { path: dir },
        ),
      );
      return;
    }
    entries.sort((a, b) => compareText(a.name, b.name));
    for (const entry of entries) {
      const child = entry.name;
      if (child.startsWith(".") || child === "node_modules") continue;
      const path = `${dir}${sep}${child}`;
      if (entry.isDirectory()) {
        this.visit(path, `${dirReal}${sep}${child}`, child, anchorReal, depth + 1);
      } else if (entry.isSymbolicLink()) {
        this.#visitLink(path, child, dir, dirReal, anchorReal, depth);
      } else if (entry.isFile() && depth === 0 && isMarkdown(child)) {
        this.locations.push(location(path, `${dirReal}${sep}${child}`, dir, stripMd(child), true));
      }
    }
  }

  /** Record the folder's skill file under another spelling (`SKILL.MD`); true when it has one. */
  #visitSkillFile(
    dir: string,
    dirReal: string,
    name: string,
    anchorReal: string,
    entries: readonly Dirent[],
  ): boolean {
    const entry = entries.find((candidate) => candidate.name.toLowerCase() === "skill.md");
    if (entry === undefined) return false;
    const path = `${dir}${sep}${entry.name}`;
    if (entry.isFile()) {
      this.locations.push(location(path, `${dirReal}${sep}${entry.name}`, dir, name, false));
      return true;
    }
    if (!entry.isSymbolicLink()) return false;
    this.#visitLinkedSkillFile(path, dir, name, anchorReal);
    return true;
  }

  /** A linked skill file makes its folder a skill folder, even when the link is refused. */
  #visitLinkedSkillFile(path: string, dir: string, name: string, anchorReal: string): void {
    const target = this.#follow(path, anchorReal);
    if (target?.kind === "file") this.locations.push(location(path, target.real, dir, name, false));
  }

  #visitLink(
    path: string,
    name: string,
    dir: string,
    dirReal: string,
    anchorReal: string,
    depth: number,
  ): void {
    const target = this.#follow(path, anchorReal);
    if (target?.kind === "dir") {
      // a link back to a folder above is a loop; a folder already entered through a link is done
      if (isInside(target.real, dirReal) || this.#linkedDirs.has(target.real)) return;
      this.#linkedDirs.add(target.real);
      this.visit(path, target.real, name, anchorReal, depth + 1);
    } else if (target?.kind === "file" && depth === 0 && isMarkdown(name)) {
      this.locations.push(location(path, target.real, dir, stripMd(name), true));
    }
  }

  #follow(
    path: string,
    anchorReal: string,
  ): { kind: "file" | "dir" | "other"; real: string } | undefined {
    const target = followLink(path, anchorReal);
    if (!target.ok) {
      this.diagnostics.push(target.diagnostic);
      return undefined;
    }
    this.followedLinks = true;
    return target;
  }
}

function location(
  path: string,
  realPath: string,
  baseDir: string,
  subject: string,
  loose: boolean,
  stats?: Stats,
): SkillLocation {
  return {
    path,
    realPath,
    baseDir,
    subject,
    loose,
    unusualName: !loose && !path.endsWith(`${sep}SKILL.md`),
    stats,
  };
}

function stripMd(file: string): string {
  return file.replace(/\.md$/i, "");
}

function isMarkdown(name: string): boolean {
  return name.toLowerCase().endsWith(".md");
}
