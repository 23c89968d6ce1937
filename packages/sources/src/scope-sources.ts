import { mkdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  type Environment,
  errnoCode,
  parseJsonDocument,
  projectLibraryDir,
  readRegularFile,
  SkillshelfError,
  userLibraryDir,
  writeFileAtomic,
} from "@skillshelf/core";

/** A scope whose indexes can be listed: the user library or the project library. */
export type IndexScope = "user" | "project";

/** Where an index folder keeps its index file, in the order they are looked for. */
export const INDEX_FILE_NAMES: readonly string[] = [
  "library.yaml",
  "library.json",
  ".claude-plugin/marketplace.json",
  ".github/plugin/marketplace.json",
  ".agents/plugins/marketplace.json",
];

/** The scope's own index: `<library>/library.yaml`. */
export function scopeIndexPath(environment: Environment, scope: IndexScope): string {
  return join(scopeLibrary(environment, scope), "library.yaml");
}

/** The file listing a scope's other indexes: `<library>/sources.json`. */
export function scopeSourcesPath(environment: Environment, scope: IndexScope): string {
  return join(scopeLibrary(environment, scope), "sources.json");
}

// a list of paths; anything larger is not a sources file
const MAX_SOURCES_BYTES = 1024 * 1024;

/**
 * The extra indexes a scope uses (absolute paths of index files or folders holding one), from its
 * `sources.json`. A missing file is no sources; a malformed one is reported and read as none.
 */
export function readScopeSources(
  environment: Environment,
  scope: IndexScope,
): { sources: string[]; text: string | undefined; diagnostics: Diagnostic[] } {
  const path = scopeSourcesPath(environment, scope);
  let text: string;
  try {
    text = readRegularFile(path, MAX_SOURCES_BYTES).toString("utf8");
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return { sources: [], text: undefined, diagnostics: [] };
    return {
      sources: [],
      text: undefined,
      diagnostics: [invalid(path, `cannot be read (${errnoCode(error) ?? String(error)})`)],
    };
  }
  const parsed = parseJsonDocument(text);
  const value = (parsed.ok ? parsed.value : undefined) as
    | { version?: unknown; sources?: unknown }
    | undefined;
  if (
    value?.version === 1 &&
    Array.isArray(value.sources) &&
    value.sources.every((item) => typeof item === "string")
  )
    return { sources: value.sources as string[], text, diagnostics: [] };
  return {
    sources: [],
    text,
    diagnostics: [invalid(path, 'is not {"version": 1, "sources": [paths]}')],
  };
}

/**
 * Find the index file a source names: the path itself when it is a file, else the first of
 * `INDEX_FILE_NAMES` inside the folder. `undefined` when there is none.
 */
export function locateIndex(path: string): string | undefined {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats?.isFile()) return path;
  if (!stats?.isDirectory()) return undefined;
  return INDEX_FILE_NAMES.map((name) => join(path, name)).find((candidate) =>
    statSync(candidate, { throwIfNoEntry: false })?.isFile(),
  );
}

/**
 * Add an index (a file, or a folder holding one) to a scope's sources; returns false when it was
 * already there. Throws `index_missing` when the path holds no index, and refuses to overwrite a
 * malformed or concurrently changed `sources.json`.
 */
export function addScopeSource(environment: Environment, scope: IndexScope, path: string): boolean {
  const absolute = resolve(environment.cwd, path);
  if (locateIndex(absolute) === undefined)
    throw new SkillshelfError(
      "index_missing",
      `${absolute} is not an index file or a folder holding one`,
      {
        path: absolute,
        hint: `name a library.yaml or marketplace.json, or a folder holding ${INDEX_FILE_NAMES.join(", ")}`,
      },
    );
  return updateSources(environment, scope, (sources) =>
    sources.includes(absolute) ? undefined : [...sources, absolute],
  );
}

/** Remove an index from a scope's sources; returns false when it was not there. */
export function removeScopeSource(
  environment: Environment,
  scope: IndexScope,
  path: string,
): boolean {
  const absolute = resolve(environment.cwd, path);
  return updateSources(environment, scope, (sources) =>
    sources.includes(absolute) ? sources.filter((source) => source !== absolute) : undefined,
  );
}

// --- internal ---

function scopeLibrary(environment: Environment, scope: IndexScope): string {
  return scope === "user" ? userLibraryDir(environment) : projectLibraryDir(environment);
}

function updateSources(
  environment: Environment,
  scope: IndexScope,
  change: (sources: string[]) => string[] | undefined,
): boolean {
  const current = readScopeSources(environment, scope);
  const [problem] = current.diagnostics;
  if (problem !== undefined)
    throw new SkillshelfError("sources_invalid", problem.message, {
      path: problem.path,
      hint: "fix or delete the file, then retry",
    });
  const next = change(current.sources);
  if (next === undefined) return false;
  const path = scopeSourcesPath(environment, scope);
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic({
    path,
    text: `${JSON.stringify({ version: 1, sources: next }, null, 2)}\n`,
    expected: current.text,
  });
  return true;
}

function invalid(path: string, problem: string): Diagnostic {
  return createDiagnostic(
    "error",
    "sources_invalid",
    `${path} ${problem}; its indexes are not read`,
    { path },
  );
}
