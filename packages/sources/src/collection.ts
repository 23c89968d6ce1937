import { lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import {
  AGENTS,
  copyTree,
  createDiagnostic,
  type Diagnostic,
  digestTree,
  errnoCode,
  isInside,
  isPackageId,
  isSemver,
  normalizeRelativePath,
  type PackageSource,
  parseFrontmatter,
  parseJsonDocument,
  readRegularFile,
  realpathOrUndefined,
  removeTree,
  resolveContained,
  type SkillPackageFacts,
  skillPackageManifestText,
} from "@skillshelf/core";
import { codedFailure, stagingFolder } from "./_failure.js";
import { GIT_DIR, skipGit } from "./_git.js";
import { type CollectionResource, readCollectionResources } from "./collection-resources.js";
import type { FetchedSource, StagedSource } from "./types.js";

/**
 * One skill a manifest-less folder or repository offers: its `name` (the id of the `skill`
 * package it becomes), description, licence and version (`metadata.version` when it is SemVer,
 * else `0.0.0`), and where it is.
 */
export interface CollectionSkill extends SkillPackageFacts {
  /** Its folder, relative to the collection (`.` for a `SKILL.md` at the root), `/`-separated. */
  readonly path: string;
}

/**
 * A private folder the skills of one collection are copied into, each in a folder named after it
 * (`stageCollectionSkill`'s `area`), so staging 50 skills makes one temporary folder, not 50.
 */
export interface StagingArea {
  readonly dir: string;
  /** Delete the folder and whatever is still staged in it; safe to call more than once. */
  release(): void;
}

/** A new staging area in `tempDir` (default: the OS temporary folder). */
export function createStagingArea(tempDir?: string): StagingArea {
  const area = stagingFolder(tempDir, "skillshelf-skills-");
  mkdirSync(area.dir);
  return area;
}

/** The skills of a collection, sorted by name, and every finding. */
export interface Collection {
  readonly skills: readonly CollectionSkill[];
  /** Its prompt templates and agent recipes (`readCollectionResources`). */
  readonly resources: readonly CollectionResource[];
  readonly diagnostics: readonly Diagnostic[];
}

// a SKILL.md read to learn its name and description; larger ones are not skills
const MAX_SKILL_FILE_BYTES = 1024 * 1024;
const MAX_MARKETPLACE_BYTES = 1024 * 1024;

/**
 * The skills of a folder with no manifest of ours (DESIGN §5.1), found in the conventional
 * layouts: a `SKILL.md` at the root (the folder is that one skill); else `skills/*` and
 * `skills/*∕*`, every agent's project skill folder (`.claude/skills/*`, `.agents/skills/*`, …) and
 * the skill folders a `.claude-plugin/marketplace.json` declares (each plugin's `skills`, and the
 * `skills/*` of each plugin kept in this folder). Folders are followed only while they stay
 * inside `dir`; the same folder reached twice counts once, and a second skill of one name is
 * reported (`collection_duplicate`) and left out, as is a skill whose name cannot be a package id
 * or whose `SKILL.md` does not parse (`collection_skill_invalid`). Its prompt templates and agent
 * recipes come with it (`readCollectionResources`).
 */
export function readCollection(dir: string): Collection {
  const root = realpathOrUndefined(dir) ?? dir;
  const diagnostics: Diagnostic[] = [];
  const candidates = hasSkillFile(join(root, "SKILL.md")) ? ["."] : candidateFolders(root);
  const seen = new Set<string>();
  const byName = new Map<string, CollectionSkill>();
  for (const path of candidates) {
    const real = realpathOrUndefined(join(root, path));
    if (real === undefined || !isInside(root, real) || seen.has(real)) continue;
    seen.add(real);
    const skill = readSkill(root, path, diagnostics);
    if (skill === undefined) continue;
    const first = byName.get(skill.name);
    if (first === undefined) byName.set(skill.name, skill);
    else
      diagnostics.push(
        createDiagnostic(
          "warning",
          "collection_duplicate",
          `${path} is a second skill named ${skill.name} (the first is ${first.path}); it is left out`,
          { path: join(root, path, "SKILL.md") },
        ),
      );
  }
  const skills = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  // a folder that is one skill offers nothing else
  const resources = candidates[0] === "." ? [] : readCollectionResources(root, diagnostics);
  return { skills, resources, diagnostics };
}

/**
 * Stage one skill of a collection as a `skill` package of its own: its folder with the
 * `plugin.json` core's `skillPackageManifestText` makes of it, replacing any entry of that
 * name. Its source is the collection's with the skill's folder as subfolder, so `update` and
 * the lock find it again.
 * The skill's folder is copied out, its `plugin.json` written with the copy, into `area` when
 * given (one area per collection: the skill's folder there is named after it), else into a
 * staging folder of its own; `collection` is only read, so it may be the folder a user named.
 * With `inPlace` (`collection` is a staging of its own that may give the folder up: no other
 * skill staged from it lies inside), the skill is staged where it is instead, and its
 * `release()` removes it from the collection.
 */
export function stageCollectionSkill(
  collection: Pick<FetchedSource, "dir" | "source" | "commit">,
  skill: CollectionSkill,
  options: {
    readonly tempDir?: string | undefined;
    readonly inPlace?: boolean | undefined;
    readonly area?: StagingArea | undefined;
  } = {},
): StagedSource {
  const from = join(collection.dir, skill.path);
  const manifestText = skillPackageManifestText(skill);
  const removing = (dir: string) => ({
    dir,
    release: () => removeTree(dir),
  });
  // a skill folder reached through a symlink is copied, which refuses it like any linked root
  const { dir, release } =
    options.inPlace === true && lstatSync(from, { throwIfNoEntry: false })?.isDirectory() === true
      ? removing(from)
      : options.area !== undefined
        ? removing(join(options.area.dir, skill.name))
        : stagingFolder(options.tempDir, "skillshelf-skill-");
  try {
    return {
      dir,
      digest:
        dir === from
          ? manifestWrittenInPlace(dir, manifestText)
          : copiedWithManifest(from, dir, manifestText),
      source: withSubfolder(collection.source, skill.path),
      ...(collection.commit === undefined ? {} : { commit: collection.commit }),
      release,
    };
  } catch (error) {
    release();
    throw codedFailure(error);
  }
}

// --- internal ---

/** The digest of the skill folder `from` copied to `dir` with `manifestText` as its `plugin.json`. */
function copiedWithManifest(from: string, dir: string, manifestText: string): string {
  const files = { "plugin.json": manifestText };
  return copyTree(from, dir, { skip: skipGit, files }).digest;
}

/** The digest of the staged skill folder `dir` once `manifestText` is its `plugin.json`. */
function manifestWrittenInPlace(dir: string, manifestText: string): string {
  const manifest = join(dir, "plugin.json");
  // a symlink of that name is replaced, never written through (most skills have no such entry)
  if (lstatSync(manifest, { throwIfNoEntry: false }) !== undefined) removeTree(manifest);
  writeFileSync(manifest, manifestText, { flag: "wx" });
  return digestTree(dir).digest;
}

/** `source` narrowed to the subfolder `path` of what it names. */
function withSubfolder(source: PackageSource, path: string): PackageSource {
  if (path === ".") return source;
  if (source.type === "local") return { ...source, path: join(source.path, ...path.split("/")) };
  const joined = source.path === undefined ? path : `${source.path}/${path}`;
  return { ...source, path: normalizeRelativePath(joined) ?? joined };
}

/** Every folder a conventional layout names, `/`-separated and relative to `root`, in layout order. */
function candidateFolders(root: string): string[] {
  const folders: string[] = [];
  const childrenOf = (path: string) =>
    subfolders(join(root, path)).map((name) => (path === "." ? name : `${path}/${name}`));
  const hasSkill = (folder: string) => hasSkillFile(join(root, folder, "SKILL.md"));
  for (const child of childrenOf("skills")) {
    if (hasSkill(child)) folders.push(child);
    else folders.push(...childrenOf(child).filter(hasSkill));
  }
  const agentRoots = new Set(AGENTS.flatMap((agent) => agent.projectSkillRoot ?? []));
  for (const agentRoot of agentRoots) folders.push(...childrenOf(agentRoot).filter(hasSkill));
  for (const declared of marketplaceFolders(root)) {
    if (hasSkill(declared)) folders.push(declared);
    else folders.push(...childrenOf(`${declared}/skills`).filter(hasSkill));
  }
  return folders;
}

/** The skill folders and plugin folders a `.claude-plugin/marketplace.json` declares, kept inside. */
function marketplaceFolders(root: string): string[] {
  const path = join(root, ".claude-plugin", "marketplace.json");
  if (!isFile(path)) return [];
  let parsed: ReturnType<typeof parseJsonDocument>;
  try {
    parsed = parseJsonDocument(readRegularFile(path, MAX_MARKETPLACE_BYTES).toString("utf8"));
  } catch {
    return [];
  }
  if (!parsed.ok) return [];
  const plugins = (parsed.value as { plugins?: unknown }).plugins;
  if (!Array.isArray(plugins)) return [];
  const folders: string[] = [];
  for (const plugin of plugins as { source?: unknown; skills?: unknown }[]) {
    if (typeof plugin !== "object" || plugin === null) continue;
    if (Array.isArray(plugin.skills)) folders.push(...plugin.skills.filter(isString));
    else if (typeof plugin.source === "string") folders.push(plugin.source);
  }
  return folders.flatMap((folder) => {
    const normalized = normalizeRelativePath(folder);
    return normalized === undefined ? [] : [normalized];
  });
}

function readSkill(
  root: string,
  path: string,
  diagnostics: Diagnostic[],
): CollectionSkill | undefined {
  const file = join(root, path, "SKILL.md");
  const invalid = (problem: string) => {
    diagnostics.push(
      createDiagnostic(
        "warning",
        "collection_skill_invalid",
        `${file} ${problem}; it is left out`,
        {
          path: file,
        },
      ),
    );
    return undefined;
  };
  // a SKILL.md that is a symlink is read only where it stays inside the collection
  if (resolveContained(file, root, { relocatable: true }).status !== "inside")
    return invalid("links outside the collection");
  let text: string;
  try {
    text = readRegularFile(file, MAX_SKILL_FILE_BYTES).toString("utf8");
  } catch {
    return invalid("cannot be read as a skill file");
  }
  const parsed = parseFrontmatter(text, { path: file });
  if (!parsed.ok) return invalid("has no frontmatter that parses");
  const { name, description, license, metadata } = parsed.data;
  if (typeof name !== "string" || !isPackageId(name))
    return invalid("has no name that can be a package id (lower-case letters, digits, hyphens)");
  const version = (metadata as { version?: unknown } | null | undefined)?.version;
  return {
    name,
    description: typeof description === "string" ? description : "",
    version: typeof version === "string" && isSemver(version) ? version : "0.0.0",
    ...(typeof license === "string" ? { license } : {}),
    path: path === "." ? "." : relative(root, join(root, path)).split(sep).join("/"),
  };
}

function subfolders(path: string): string[] {
  let names: string[];
  try {
    names = readdirSync(path);
  } catch {
    return [];
  }
  return names.filter((name) => name !== GIT_DIR && isDirectoryOrLink(join(path, name))).sort();
}

function isDirectoryOrLink(path: string): boolean {
  const stats = lstatOrUndefined(path);
  return stats?.isDirectory() === true || stats?.isSymbolicLink() === true;
}

function isFile(path: string): boolean {
  return lstatOrUndefined(path)?.isFile() === true;
}

/** A `SKILL.md` a collection offers: a file, or a symlink (read only if it stays inside). */
function hasSkillFile(path: string): boolean {
  const stats = lstatOrUndefined(path);
  return stats?.isFile() === true || stats?.isSymbolicLink() === true;
}

/** `lstat`, or `undefined` where nothing is, also below a file (a folder found as a link to one). */
function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if (errnoCode(error) === "ENOTDIR") return undefined;
    throw error;
  }
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}
