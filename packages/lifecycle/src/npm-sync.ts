// `sync-npm`: the skills a project's installed npm dependencies ship, as packages of the project
// pinned to each dependency's exact version (the registry's integrity checked and locked), and the
// ones whose dependency left.
import { type Dirent, lstatSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { type Environment, isInside, parseYamlDocument, SkillshelfError } from "@skillshelf/core";
import { readScopeState } from "@skillshelf/store";
import { readJsonFile, writeJsonFile } from "./_json-file.js";

/** One skill a dependency ships: where, and the source `install` takes for it. */
export interface NpmSkill {
  readonly dependency: string;
  readonly version: string;
  /** Its folder in the package (`""`: the package is the skill). */
  readonly path: string;
  readonly skill: string;
  /** `npm:<name>@<version>[//<path>]`. */
  readonly source: string;
}

/** What `npmSkills` reads: which dependencies, and whether the workspace's packages' too. */
interface NpmSkillFilters {
  /** `pkg` or `pkg#skill`: only these. */
  readonly include?: readonly string[] | undefined;
  /** `pkg` or `pkg#skill`: never these. */
  readonly exclude?: readonly string[] | undefined;
  /**
   * Also the dependencies of every package of the project's workspace (`workspaces` in its
   * package.json, or `packages` in pnpm-workspace.yaml), each found in that package's
   * node_modules or, hoisted, in the project's.
   */
  readonly recursive?: boolean | undefined;
}

/**
 * The skills the project's dependencies (`dependencies`, `devDependencies`,
 * `optionalDependencies` of its package.json, as installed in its node_modules) ship: a root
 * `SKILL.md`, `skills/<name>/SKILL.md` or `dist/skills/<name>/SKILL.md`; narrowed by `include`
 * and `exclude` (`pkg` or `pkg#skill`). A dependency that is a package of the workspace itself
 * (linked, not installed from a registry) is left out. `npm_project_missing` without a
 * package.json.
 */
export function npmSkills(
  environment: Environment,
  filters: NpmSkillFilters = {},
): readonly NpmSkill[] {
  const { project } = environment;
  const manifest = readJson(join(project, "package.json"));
  if (manifest === undefined)
    throw new SkillshelfError(
      "npm_project_missing",
      `${project} has no package.json to read dependencies from`,
      { path: join(project, "package.json") },
    );
  const packages = [
    project,
    ...(filters.recursive === true ? workspaceFolders(project, manifest) : []),
  ];
  // each dependency once, from the first package naming it that has it installed
  const installed = new Map<string, string>();
  for (const folder of packages)
    for (const dependency of dependencyNames(readJson(join(folder, "package.json")) ?? {}))
      if (!installed.has(dependency)) {
        const dir = [folder, project]
          .map((base) => join(base, "node_modules", dependency))
          .find((candidate) => fromRegistry(project, candidate));
        if (dir !== undefined) installed.set(dependency, dir);
      }
  const found: NpmSkill[] = [];
  for (const [dependency, dir] of [...installed].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const version = readJson(join(dir, "package.json"))?.version;
    if (typeof version !== "string") continue;
    for (const path of skillFolders(dir)) {
      const skill =
        path === ""
          ? (dependency.split("/").at(-1) ?? dependency)
          : (path.split("/").at(-1) ?? path);
      found.push({
        dependency,
        version,
        path,
        skill,
        source: `npm:${dependency}@${version}${path === "" ? "" : `//${path}`}`,
      });
    }
  }
  const matches = (patterns: readonly string[], one: NpmSkill) =>
    patterns.some(
      (pattern) => pattern === one.dependency || pattern === `${one.dependency}#${one.skill}`,
    );
  return found.filter(
    (one) =>
      (filters.include === undefined ||
        filters.include.length === 0 ||
        matches(filters.include, one)) &&
      !matches(filters.exclude ?? [], one),
  );
}

/**
 * The project's packages a sync installed whose dependency is no longer one: what it prunes.
 * Only copies a sync installed (`npm-sync.json` in the project library) are ever pruned.
 */
export function npmPruned(environment: Environment, synced: readonly NpmSkill[]): string[] {
  const kept = new Set(synced.map((one) => one.dependency));
  const state = readScopeState(environment, "project");
  if (!state.ok) return [];
  const { installed } = state.value.state;
  return Object.entries(readSynced(environment))
    .filter(([id, dependency]) => Object.hasOwn(installed, id) && !kept.has(dependency))
    .map(([id]) => id)
    .sort();
}

/**
 * Record which of the project's packages a sync installed, each with the dependency that ships
 * it (what a later sync prunes once that dependency is gone).
 */
export function recordSynced(
  environment: Environment,
  synced: Readonly<Record<string, string>>,
): void {
  const sorted = Object.fromEntries(Object.entries(synced).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeJsonFile(syncedPath(environment), { version: 1, skills: sorted });
}

/** The packages a sync installed into the project, each id with the dependency that ships it. */
export function readSynced(environment: Environment): Readonly<Record<string, string>> {
  const skills = readJson(syncedPath(environment))?.skills;
  if (typeof skills !== "object" || skills === null) return {};
  return Object.fromEntries(
    Object.entries(skills).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
}

// --- internal ---

function dependencyNames(manifest: Record<string, unknown>): string[] {
  return ["dependencies", "devDependencies", "optionalDependencies"].flatMap((field) =>
    Object.keys((manifest[field] as Record<string, unknown> | undefined) ?? {}),
  );
}

/**
 * An installed dependency that came from a registry: its folder has a package.json, and its real
 * path is not a folder of the project outside every node_modules (a workspace package linked in).
 */
function fromRegistry(project: string, dir: string): boolean {
  let real: string;
  try {
    real = realpathSync(join(dir, "package.json"));
  } catch {
    return false;
  }
  return !isInside(project, real) || relative(project, real).split(sep).includes("node_modules");
}

/**
 * The folders of the workspace's packages: `workspaces` in the project's package.json (a list,
 * or `{ packages }`), else `packages` in pnpm-workspace.yaml; each pattern a path whose segments
 * are names or `*` (`packages/*`), `**` for any depth below; `!pattern` leaves folders out.
 * Only folders inside the project holding a package.json count.
 */
function workspaceFolders(project: string, manifest: Record<string, unknown>): string[] {
  const patterns = workspacePatterns(project, manifest);
  const excluded = new Set(
    patterns.filter((one) => one.startsWith("!")).flatMap((one) => expand(project, one.slice(1))),
  );
  const folders = patterns
    .filter((one) => !one.startsWith("!"))
    .flatMap((one) => expand(project, one))
    .filter((folder) => !excluded.has(folder) && folder !== project);
  return [...new Set(folders)].filter(
    (folder) =>
      lstatSync(join(folder, "package.json"), { throwIfNoEntry: false })?.isFile() === true,
  );
}

function workspacePatterns(project: string, manifest: Record<string, unknown>): string[] {
  const strings = (value: unknown) =>
    Array.isArray(value) ? value.filter((one): one is string => typeof one === "string") : [];
  const declared = manifest.workspaces;
  if (declared !== undefined)
    return strings(
      Array.isArray(declared) ? declared : (declared as { packages?: unknown })?.packages,
    );
  let text: string;
  try {
    text = readFileSync(join(project, "pnpm-workspace.yaml"), "utf8");
  } catch {
    return [];
  }
  const parsed = parseYamlDocument(text, { maxLength: 1 << 20 });
  return parsed.ok ? strings((parsed.value as { packages?: unknown } | null)?.packages) : [];
}

/** The folders a workspace pattern names under `project`, never through a symlink or out of it. */
function expand(project: string, pattern: string): string[] {
  let folders = [project];
  for (const segment of pattern.replace(/^\.\//, "").split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") return [];
    folders = folders.flatMap((folder) =>
      segment === "*" || segment === "**"
        ? subfolders(folder, segment === "**")
        : [join(folder, segment)],
    );
  }
  return folders.filter(
    (folder) => lstatSync(folder, { throwIfNoEntry: false })?.isDirectory() === true,
  );
}

/** The plain folders below `folder` (all depths with `deep`), node_modules and dot folders left out. */
function subfolders(folder: string, deep: boolean): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter(
      (entry) =>
        entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules",
    )
    .flatMap((entry) => {
      const path = join(folder, entry.name);
      return deep ? [path, ...subfolders(path, true)] : [path];
    });
}

function syncedPath(environment: Environment): string {
  return join(environment.project, ".skillshelf", "npm-sync.json");
}

/** The skill folders of one installed package, in the three layouts packages ship them in. */
function skillFolders(dir: string): string[] {
  const isFile = (path: string) => lstatSync(path, { throwIfNoEntry: false })?.isFile() === true;
  if (isFile(join(dir, "SKILL.md"))) return [""];
  return ["skills", "dist/skills"].flatMap((base) => {
    const folder = join(dir, base);
    if (lstatSync(folder, { throwIfNoEntry: false })?.isDirectory() !== true) return [];
    return readdirSync(folder)
      .sort()
      .filter((name) => isFile(join(folder, name, "SKILL.md")))
      .map((name) => `${base}/${name}`);
  });
}

function readJson(path: string): Record<string, unknown> | undefined {
  const value = readJsonFile(path)?.value;
  return typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}
