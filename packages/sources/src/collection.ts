import { closeSync, lstatSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import {
  copyTree,
  createDiagnostic,
  type Diagnostic,
  digestTree,
  errnoCode,
  isPackageId,
  isSemver,
  openRegularFile,
  type PackageSource,
  realpathOrUndefined,
  removeTree,
  resolveContained,
  type SkillPackageFacts,
  skillPackageManifestText,
  type TreeDigest,
  type TreeFileRead,
} from "@skillshelf/core";
import {
  readSkillFolderFile,
  type SkillCache,
  type SkillFolderFile,
} from "@skillshelf/skills-loader";
import { findSkillFolders, type PassedOver } from "./_collection-layouts.js";
import { codedFailure, stagingFolder } from "./_failure.js";
import { skipGit } from "./_git.js";
import { type CollectionResource, readCollectionResources } from "./collection-resources.js";
import { sourceWithin } from "./fetchers/index.js";
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

/** A skill of a collection that cannot be installed as it is, and why (a code of its own). */
export interface RefusedSkill {
  /** Its folder as found, relative to the collection, `/`-separated. */
  readonly path: string;
  readonly code:
    | "collection_link_outside"
    | "collection_link_dangling"
    | "collection_not_a_skill"
    | "collection_skill_invalid";
  readonly message: string;
}

/**
 * The skills of a collection, sorted by name then path, and every finding (a finding about one
 * skill's folder, a clash or a refusal, names it in `details.skill`).
 */
export interface Collection {
  /** Every skill read; two of one name are both here (`clashes` names them). */
  readonly skills: readonly CollectionSkill[];
  /** Names more than one skill has, each with every path that has it. */
  readonly clashes: ReadonlyMap<string, readonly string[]>;
  /** Skill folders left out: links out of the collection, files that do not make a skill. */
  readonly refused: readonly RefusedSkill[];
  /** Its prompt templates and agent recipes (`readCollectionResources`). */
  readonly resources: readonly CollectionResource[];
  readonly diagnostics: readonly Diagnostic[];
  /** Skill folders the layouts passed over, by top-level folder (`findSkillFolders`). */
  readonly passedOver: readonly PassedOver[];
}

/**
 * The skills of a folder with no manifest of ours, found as authors lay them out
 * (`findSkillFolders`: a `SKILL.md` at the root, the conventional layouts, skill folders at the
 * root, then category folders), each folder once by its real path inside `dir`. Two skills of one
 * name are both kept and reported (`collection_duplicate`, each with its path); a folder that
 * leads out of the collection (`collection_link_outside`) or whose `SKILL.md` does not make a
 * skill (`collection_skill_invalid`) is refused alone. Its prompt templates and agent recipes
 * come with it (`readCollectionResources`).
 */
export function readCollection(
  dir: string,
  options: {
    /** The skills loader's cache each `SKILL.md` read goes through (a plan's, which validates the skills where they are). */
    readonly skillFiles?: SkillCache | undefined;
    /** Every layout and every folder (`findSkillFolders`' `fullDepth`). */
    readonly fullDepth?: boolean | undefined;
    /**
     * The source `dir` was fetched from: when it names a folder (a subfolder, a local folder),
     * a `SKILL.md` at the root whose name cannot be typed is named after that folder, as the
     * skills loader names one (`Clockify Automation` in `clockify-automation/`), so installing the
     * repository and updating the skill's folder name it alike.
     */
    readonly source?: PackageSource | undefined;
  } = {},
): Collection {
  const root = realpathOrUndefined(dir) ?? dir;
  const found = findSkillFolders(root, { fullDepth: options.fullDepth });
  const diagnostics: Diagnostic[] = [...found.diagnostics];
  const refused: RefusedSkill[] = found.outside.map(({ path }) => ({
    path,
    code: "collection_link_outside",
    message: `${path} leads out of the collection`,
  }));
  // a mirror (`.gemini/skills/x/SKILL.md` linked to `skills/x/SKILL.md`) is the skill it links
  // to: one skill per real file, staged from the folder that holds the file itself
  const byFile = new Map<string, CollectionSkill>();
  for (const path of found.folders) {
    const read = readSkill({ dir, root, ...rootName(options.source) }, path, options.skillFiles);
    if ("skill" in read) {
      // only a file that is some folder's SKILL.md makes that folder the skill
      const real =
        basename(read.realFile) === "SKILL.md"
          ? relative(root, dirname(read.realFile)).split(sep).join("/") || "."
          : path;
      byFile.set(read.realFile, { ...read.skill, path: real });
      continue;
    }
    const code = read.code ?? "collection_skill_invalid";
    refused.push({ path, code, message: read.problem });
    diagnostics.push(
      createDiagnostic("warning", code, `${read.file} ${read.problem}; it is left out`, {
        path: read.file,
        details: { skill: path },
      }),
    );
  }
  const skills = [...byFile.values()];
  skills.sort((a, b) =>
    a.name !== b.name ? (a.name < b.name ? -1 : 1) : a.path < b.path ? -1 : 1,
  );
  const clashes = new Map<string, string[]>();
  skills.forEach((skill, index) => {
    const next = skills[index + 1];
    const previous = skills[index - 1];
    if (next?.name !== skill.name && previous?.name !== skill.name) return;
    const paths = clashes.get(skill.name) ?? [];
    paths.push(skill.path);
    clashes.set(skill.name, paths);
  });
  for (const [name, paths] of clashes)
    for (const path of paths)
      diagnostics.push(
        createDiagnostic(
          "warning",
          "collection_duplicate",
          `${path} is one of ${paths.length} skills named ${name} (${paths.join(", ")}); pick one by its path`,
          { path: join(root, path, "SKILL.md"), details: { name, paths, skill: path } },
        ),
      );
  // a folder that is one skill offers nothing else
  const resources = found.folders[0] === "." ? [] : readCollectionResources(root, diagnostics);
  return { skills, clashes, refused, resources, diagnostics, passedOver: found.passedOver };
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
 * `release()` removes it from the collection. `read` is handed every regular file of the staged
 * tree as it is read for the digest (core's `TreeFileRead`), so another reader need not read it.
 */
export function stageCollectionSkill(
  collection: Pick<FetchedSource, "dir" | "source" | "commit" | "commits" | "signers" | "mirror">,
  skill: CollectionSkill,
  options: {
    readonly tempDir?: string | undefined;
    readonly inPlace?: boolean | undefined;
    readonly area?: StagingArea | undefined;
    readonly read?: ((file: TreeFileRead) => void) | undefined;
  } = {},
): StagedSource {
  const from = join(collection.dir, skill.path);
  // signed as its own folder, or as part of all that was fetched (a signed commit or artifact)
  const signer = collection.signers?.[skill.path] ?? collection.signers?.["."];
  const commit = collection.commits?.[skill.path] ?? collection.commit;
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
    const read =
      dir === from
        ? manifestWrittenInPlace(dir, manifestText, options.read)
        : copiedWithManifest(from, dir, manifestText, options.read);
    return {
      dir,
      ...read,
      source: sourceWithin(collection.source, skill.path),
      ...(commit === undefined ? {} : { commit }),
      // the skill's own signer, when what was fetched signed its folder
      ...(signer === undefined ? {} : { signers: { ".": signer } }),
      ...(collection.mirror === undefined ? {} : { mirror: collection.mirror }),
      release,
    };
  } catch (error) {
    release();
    throw codedFailure(error);
  }
}

// --- internal ---

/** The name of the folder `source` names, when it names one that can be a package id. */
function rootName(source: PackageSource | undefined): { rootName?: string } {
  const path = source !== undefined && "path" in source ? source.path : undefined;
  const folder = path?.split(/[\\/]/).at(-1);
  return folder !== undefined && isPackageId(folder) ? { rootName: folder } : {};
}

/**
 * The digest of the skill folder `from` copied to `dir` with `manifestText` as its `plugin.json`,
 * with the copy's stamp and its files' fingerprints (`StagedSource.stamped`).
 */
function copiedWithManifest(
  from: string,
  dir: string,
  manifestText: string,
  read: ((file: TreeFileRead) => void) | undefined,
): Pick<StagedSource, "digest" | "stamped"> {
  const files = { "plugin.json": manifestText };
  const copied = copyTree(from, dir, { skip: skipGit, files, read, listing: true, stamp: true });
  return stampedDigest(copied);
}

/**
 * The digest of the staged skill folder `dir` once `manifestText` is its `plugin.json`, with the
 * tree's stamp taken as it was read and its files' fingerprints (`StagedSource.stamped`).
 */
function manifestWrittenInPlace(
  dir: string,
  manifestText: string,
  read: ((file: TreeFileRead) => void) | undefined,
): Pick<StagedSource, "digest" | "stamped"> {
  const manifest = join(dir, "plugin.json");
  // created, never opened: an entry of that name (a symlink too, which `wx` never follows) is
  // replaced (most skills have none)
  try {
    writeFileSync(manifest, manifestText, { flag: "wx" });
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") throw error;
    removeTree(manifest);
    writeFileSync(manifest, manifestText, { flag: "wx" });
  }
  return stampedDigest(digestTree(dir, { listing: true, stamp: true, read }));
}

/** A staged tree's digest, and its stamp and fingerprints when the read took them. */
function stampedDigest({
  digest,
  listing,
  stamp,
}: TreeDigest): Pick<StagedSource, "digest" | "stamped"> {
  return {
    digest,
    ...(stamp === undefined || listing === undefined ? {} : { stamped: { ...stamp, listing } }),
  };
}

/**
 * `file`, the `SKILL.md` of a folder at a real path inside `root`, where only a symlink can lead
 * out: opened without following one; a link is followed only where it stays inside (its real
 * path then, to be opened by the reader), `undefined` where it leads out.
 */
function skillFileAt(
  root: string,
  file: string,
): { realPath: string; opened?: ReturnType<typeof openRegularFile> } | "outside" | "missing" {
  try {
    return { realPath: file, opened: openRegularFile(file, { noFollow: true }) };
  } catch (error) {
    if (errnoCode(error) !== "ELOOP") throw error;
  }
  const contained = resolveContained(file, root, { relocatable: true });
  return contained.status === "inside" ? { realPath: contained.real } : contained.status;
}

/**
 * The skill in the folder `path` (a real path inside the collection's `root`, the real path of
 * its `dir`), or what keeps its file from making one. Its file is read as the skills loader
 * reads a package's (`readSkillFolderFile`), through `cache` when given, so validating the
 * skill's package where it is reads it no more.
 */
function readSkill(
  collection: { readonly dir: string; readonly root: string; readonly rootName?: string },
  path: string,
  cache: SkillCache | undefined,
):
  | { skill: CollectionSkill; realFile: string }
  | { file: string; problem: string; code?: RefusedSkill["code"] } {
  const file = join(collection.root, path, "SKILL.md");
  const invalid = (problem: string, code?: RefusedSkill["code"]) => ({
    file,
    problem,
    ...(code === undefined ? {} : { code }),
  });
  let read: SkillFolderFile;
  let realFile: string;
  try {
    const at = skillFileAt(collection.root, file);
    if (at === "outside") return invalid("links outside the collection", "collection_link_outside");
    if (at === "missing")
      return invalid("is a link to a file that does not exist", "collection_link_dangling");
    realFile = at.realPath;
    try {
      // kept under the path the skill is staged at (in the folder as named, which may be reached
      // through a link: a temporary folder's often is)
      read = readSkillFolderFile({ ...at, path: join(collection.dir, path, "SKILL.md") }, cache);
    } finally {
      if (at.opened !== undefined) closeSync(at.opened.fd);
    }
  } catch {
    return invalid("cannot be read as a skill file");
  }
  const frontmatter = read.frontmatter;
  if (frontmatter === undefined) {
    const error = read.diagnostics.find((diagnostic) => diagnostic.severity === "error");
    return error?.code === "frontmatter_missing"
      ? invalid("has no frontmatter: it is no skill", "collection_not_a_skill")
      : invalid(`does not make a skill (${error?.code ?? "read_failed"})`);
  }
  const { description, license, metadata } = frontmatter;
  // the name the loader gives it: its folder's when the one written cannot be typed ("PDF
  // Tools" in pdf-tools/); the collection's own folder is where it was fetched to, so its name
  // is the one its author gave that folder when a source names it (`//skills/pdf-tools`)
  const name =
    path !== "."
      ? read.name
      : collection.rootName !== undefined && !isPackageId(String(frontmatter.name))
        ? collection.rootName
        : frontmatter.name;
  if (typeof name !== "string" || !isPackageId(name))
    return invalid(
      "has no name that can be a package id (lower-case letters, digits, hyphens; not constructor)",
    );
  const version = (metadata as { version?: unknown } | null | undefined)?.version;
  return {
    realFile,
    skill: {
      name,
      description: typeof description === "string" ? description : "",
      version: typeof version === "string" && isSemver(version) ? version : "0.0.0",
      ...(typeof license === "string" ? { license } : {}),
      path,
    },
  };
}
