// `sync-npm`: the skills a project's installed npm dependencies ship, as packages of the project
// pinned to each dependency's exact version (the registry's integrity checked and locked), and the
// ones whose dependency left.
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type Environment, SkillshelfError } from "@skillshelf/core";
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

/**
 * The skills the project's dependencies (`dependencies`, `devDependencies`,
 * `optionalDependencies` of its package.json, as installed in its node_modules) ship: a root
 * `SKILL.md`, `skills/<name>/SKILL.md` or `dist/skills/<name>/SKILL.md`; narrowed by `include`
 * and `exclude` (`pkg` or `pkg#skill`). `npm_project_missing` without a package.json.
 */
export function npmSkills(
  environment: Environment,
  filters: { readonly include?: readonly string[]; readonly exclude?: readonly string[] } = {},
): readonly NpmSkill[] {
  const manifest = readJson(join(environment.project, "package.json"));
  if (manifest === undefined)
    throw new SkillshelfError(
      "npm_project_missing",
      `${environment.project} has no package.json to read dependencies from`,
      { path: join(environment.project, "package.json") },
    );
  const names = new Set(
    ["dependencies", "devDependencies", "optionalDependencies"].flatMap((field) =>
      Object.keys((manifest[field] as Record<string, unknown> | undefined) ?? {}),
    ),
  );
  const found: NpmSkill[] = [];
  for (const dependency of [...names].sort()) {
    const dir = join(environment.project, "node_modules", dependency);
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
  const ours = new Set(readSynced(environment));
  const state = readScopeState(environment, "project");
  if (!state.ok) return [];
  return Object.entries(state.value.state.installed)
    .filter(([id, record]) => {
      const source = record.origin.source as { type: string; name?: string };
      return ours.has(id) && source.type === "npm" && !kept.has(source.name ?? "");
    })
    .map(([id]) => id)
    .sort();
}

/** Record which of the project's packages a sync installed (what a later sync may prune). */
export function recordSynced(environment: Environment, ids: readonly string[]): void {
  writeJsonFile(syncedPath(environment), { version: 1, ids: [...new Set(ids)].sort() });
}

/** The ids a sync installed into the project. */
export function readSynced(environment: Environment): readonly string[] {
  const ids = readJson(syncedPath(environment))?.ids;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [];
}

// --- internal ---

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
