import { mkdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  type Environment,
  errnoCode,
  type PackageScope,
  parseJsonDocument,
  readRegularFile,
  SkillshelfError,
  scopeLibraryDir,
  sha256,
  userLibraryDir,
  writeFileAtomic,
} from "@skillshelf/core";
import { readIndex } from "./index-file.js";
import type { IndexResult } from "./types.js";

/** Where an index folder keeps its index file, in the order they are looked for. */
export const INDEX_FILE_NAMES: readonly string[] = [
  "library.yaml",
  "library.json",
  ".claude-plugin/marketplace.json",
  ".github/plugin/marketplace.json",
  ".agents/plugins/marketplace.json",
];

/** The scope's own index: `<library>/library.yaml`. */
export function scopeIndexPath(environment: Environment, scope: PackageScope): string {
  return join(scopeLibraryDir(environment, scope), "library.yaml");
}

/** The file listing a scope's other indexes: `<library>/sources.json`. */
export function scopeSourcesPath(environment: Environment, scope: PackageScope): string {
  return join(scopeLibraryDir(environment, scope), "sources.json");
}

// a list of sources; anything larger is not a sources file
const MAX_SOURCES_BYTES = 1024 * 1024;

/**
 * One index a scope names in its `sources.json`: a local index file or folder (written as a
 * path, absolute or relative to the library), or a remote one (written as `{"url", "ref"?}`: a
 * git repository or an `https://` index file), read from its copy in the user library's cache,
 * which `sources add` and `sources update` fetch.
 */
export type ScopeSource =
  | { readonly type: "path"; readonly path: string }
  | {
      readonly type: "remote";
      readonly url: string;
      readonly ref?: string | undefined;
      /** Where its last fetch is kept: a folder under `<user library>/cache/indexes/`. */
      readonly cache: string;
    };

/**
 * The extra indexes a scope uses, from its `sources.json`. A missing file is no sources; a
 * malformed one is reported and read as none.
 */
export function readScopeSources(
  environment: Environment,
  scope: PackageScope,
): { sources: ScopeSource[]; text: string | undefined; diagnostics: Diagnostic[] } {
  const path = scopeSourcesPath(environment, scope);
  const read = readEntries(path);
  if (read.entries === undefined)
    return { sources: [], text: read.text, diagnostics: read.diagnostics };
  const library = scopeLibraryDir(environment, scope);
  const sources = read.entries.map(
    (entry): ScopeSource =>
      typeof entry === "string"
        ? { type: "path", path: resolve(library, entry) }
        : {
            type: "remote",
            url: entry.url,
            ...(entry.ref === undefined ? {} : { ref: entry.ref }),
            cache: remoteCache(environment, entry.url, entry.ref),
          },
  );
  return { sources, text: read.text, diagnostics: [] };
}

/** A source as `sources list` prints it and `sources remove` takes it: its URL, or its path. */
export function sourceName(source: ScopeSource): string {
  return source.type === "remote"
    ? `${source.url}${source.ref === undefined ? "" : `#${source.ref}`}`
    : source.path;
}

/** The folder a remote index is fetched into. */
export function remoteCache(environment: Environment, url: string, ref?: string): string {
  const key = sha256(`${url}#${ref ?? ""}`).slice(0, 16);
  return join(userLibraryDir(environment), "cache", "indexes", key);
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
 * Add a local index (a file, or a folder holding one) to a scope's sources, after checking it is
 * one: `index_missing` when the path holds none, `index_invalid` (with its findings) when the
 * file is not an index (a `plugin.json`, a file that does not parse). Returns false when it was
 * already there. Refuses to overwrite a malformed or concurrently changed `sources.json`.
 */
export function addScopeSource(
  environment: Environment,
  scope: PackageScope,
  path: string,
): boolean {
  const absolute = resolve(environment.cwd, path);
  const located = locateIndex(absolute);
  if (located === undefined)
    throw new SkillshelfError(
      "index_missing",
      `${absolute} is not an index file or a folder holding one`,
      {
        path: absolute,
      },
    );
  assertIndex(located, path);
  return changeSources(environment, scope, (entries) =>
    entries.some((entry) => entry === absolute) ? undefined : [...entries, absolute],
  );
}

/** Record a remote index (already fetched and checked) in a scope's sources; false when it was there. */
export function addRemoteScopeSource(
  environment: Environment,
  scope: PackageScope,
  remote: { readonly url: string; readonly ref?: string | undefined },
): boolean {
  const entry = { url: remote.url, ...(remote.ref === undefined ? {} : { ref: remote.ref }) };
  return changeSources(environment, scope, (entries) =>
    entries.some((known) => typeof known !== "string" && sameRemote(known, entry))
      ? undefined
      : [...entries, entry],
  );
}

/**
 * Remove an index from a scope's sources, named as `sources list` prints it: a remote one by its
 * URL (with `#ref` when it has one), a local one by its path or the index file found in it
 * (relative to `cwd`, or `~/…`). Returns false when it was not there.
 */
export function removeScopeSource(
  environment: Environment,
  scope: PackageScope,
  name: string,
): boolean {
  const path = resolve(
    environment.cwd,
    name.startsWith("~/") ? join(environment.home, name.slice(2)) : name,
  );
  const library = scopeLibraryDir(environment, scope);
  const matches = (entry: SourceEntry) => {
    if (typeof entry !== "string")
      return sourceName({ type: "remote", ...entry, cache: "" }) === name || entry.url === name;
    const absolute = resolve(library, entry);
    return absolute === path || locateIndex(absolute) === path;
  };
  return changeSources(environment, scope, (entries) =>
    entries.some(matches) ? entries.filter((entry) => !matches(entry)) : undefined,
  );
}

/**
 * Refuse a file that is not a package index (`index_invalid`, its findings in `details`), so a
 * `plugin.json` or a file that does not parse is never recorded as one; the index as read.
 */
export function assertIndex(path: string, named: string): IndexResult {
  const index = readIndex(path);
  const problems = index.diagnostics.filter((diagnostic) => diagnostic.severity === "error");
  if (index.rows.length === 0 && problems.length > 0)
    throw new SkillshelfError(
      "index_invalid",
      `${named} is not a package index: ${problems[0]?.message ?? "it has no rows"}`,
      {
        path,
        details: { diagnostics: problems },
      },
    );
  return index;
}

// --- internal ---

/** One entry of `sources.json`: a path, or a remote index. */
type SourceEntry = string | { readonly url: string; readonly ref?: string | undefined };

function sameRemote(a: Exclude<SourceEntry, string>, b: Exclude<SourceEntry, string>): boolean {
  return a.url === b.url && a.ref === b.ref;
}

function readEntries(path: string): {
  entries: SourceEntry[] | undefined;
  text: string | undefined;
  diagnostics: Diagnostic[];
} {
  let text: string;
  try {
    text = readRegularFile(path, MAX_SOURCES_BYTES).toString("utf8");
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return { entries: [], text: undefined, diagnostics: [] };
    return {
      entries: undefined,
      text: undefined,
      diagnostics: [invalid(path, `cannot be read (${errnoCode(error) ?? String(error)})`)],
    };
  }
  const parsed = parseJsonDocument(text);
  const value = (parsed.ok ? parsed.value : undefined) as
    | { version?: unknown; sources?: unknown }
    | undefined;
  if (value?.version === 1 && Array.isArray(value.sources) && value.sources.every(isEntry))
    return { entries: value.sources as SourceEntry[], text, diagnostics: [] };
  return {
    entries: undefined,
    text,
    diagnostics: [
      invalid(path, 'is not {"version": 1, "sources": [paths or {"url", "ref"}]}'),
      ...(!parsed.ok && parsed.code !== undefined
        ? [createDiagnostic("error", parsed.code, `${path} ${parsed.message}`, { path })]
        : []),
    ],
  };
}

function isEntry(value: unknown): boolean {
  if (typeof value === "string") return value !== "";
  if (typeof value !== "object" || value === null) return false;
  const { url, ref, ...rest } = value as Record<string, unknown>;
  return (
    typeof url === "string" &&
    url !== "" &&
    (ref === undefined || typeof ref === "string") &&
    Object.keys(rest).length === 0
  );
}

function changeSources(
  environment: Environment,
  scope: PackageScope,
  change: (entries: SourceEntry[]) => SourceEntry[] | undefined,
): boolean {
  const path = scopeSourcesPath(environment, scope);
  const current = readEntries(path);
  const [problem] = current.diagnostics;
  if (problem !== undefined || current.entries === undefined)
    throw new SkillshelfError("sources_invalid", problem?.message ?? `${path} cannot be read`, {
      path,
    });
  const next = change(current.entries);
  if (next === undefined) return false;
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
