import { existsSync } from "node:fs";
import { resolve } from "node:path";
import {
  closest,
  createDiagnostic,
  type Diagnostic,
  type Environment,
  isSkillshelfError,
  type PackageScope,
  SkillshelfError,
} from "@skillshelf/core";
import { changeStageOptions } from "@skillshelf/lifecycle";
import {
  addRemoteScopeSource,
  addScopeSource,
  fetchRemoteIndex,
  locateIndex,
  parseRemoteIndex,
  type RemoteIndex,
  readIndex,
  readScopeSources,
  removeScopeSource,
  scopeIndexPath,
  sourceName,
} from "@skillshelf/sources";
import { progressLine } from "../_interact.js";
import { type CommandInput, scopeValue } from "../command.js";
import { type CommandContext, printJson, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, formatTable, painter, safeLine } from "../format.js";
import type { CliIo } from "../io.js";
import { UsageError } from "../usage-error.js";

/** One index in `sources list --json`. */
interface ListedIndex {
  /** The index file read: for a remote index, its copy in the cache. */
  readonly path: string;
  /** What `sources remove` takes: the path added, or the URL (with `#ref`). */
  readonly name: string;
  readonly scope: PackageScope;
  /** `own`: the scope's library.yaml; `added`: a local one `sources add` named; `remote`: fetched. */
  readonly kind: "own" | "added" | "remote";
  readonly format: "library" | "marketplace" | undefined;
  readonly rows: number;
  readonly diagnostics: readonly Diagnostic[];
}

const ACTIONS = ["list", "add", "remove", "update"] as const;

/** What `sources` reads. */
type SourcesValues = { readonly user: boolean; readonly project: boolean; readonly json: boolean };

export async function runSources(input: CommandInput<SourcesValues>): Promise<number> {
  const { io } = input;
  const [action = "", name] = input.positionals;
  if (!(ACTIONS as readonly string[]).includes(action))
    throw new UsageError(
      "usage_invalid_value",
      `${JSON.stringify(action)} is not an action of skillshelf sources; use list, add <source>, remove <source> or update [source]`,
      { suggestion: closestAction(action) },
    );
  const context = input.context();
  const chosen = input.values.user || input.values.project;
  const scopes: PackageScope[] = chosen ? [scopeValue(input, "user")] : ["user", "project"];
  if (action === "list") {
    if (name !== undefined)
      throw new UsageError("usage_extra_argument", "sources list takes no source");
    return printIndexes(listIndexes(context.environment, scopes), input, context);
  }
  if (action === "update") return updateSources(input, context, scopes, name);
  if (name === undefined)
    throw new UsageError(
      "usage_missing_argument",
      `sources ${action} needs the index to ${action}`,
    );
  if (input.values.json)
    throw new UsageError("usage_invalid_value", "--json applies to sources list and update");
  const scope = scopeValue(input, "user");
  const { environment, style } = context;
  if (action === "remove") {
    const removed = removeScopeSource(environment, scope, name);
    io.stdout(
      removed
        ? `removed ${safeLine(name)} from the ${scope} sources\n`
        : `${safeLine(name)} is not a ${scope} source (skillshelf sources list prints them)\n`,
    );
    return removed ? 0 : 1;
  }
  // a folder is read where it is, unless it is a bare repository (fetched like any remote one)
  const remote = parseRemoteIndex(name, environment.cwd);
  if (remote === undefined) {
    const added = addScopeSource(environment, scope, name);
    const shown = displayPath(
      locateIndex(resolve(environment.cwd, name)) ?? resolve(environment.cwd, name),
      style,
    );
    io.stdout(
      added
        ? `added ${shown} to the ${scope} sources\n`
        : `${shown} is already a ${scope} source\n`,
    );
    return 0;
  }
  const fetched = await fetchWithProgress(io, environment, remote, scope);
  const added = addRemoteScopeSource(environment, scope, remote);
  const { rows } = fetched;
  const shown = sourceName({ type: "remote", ...remote, cache: fetched.cache });
  io.stdout(
    added
      ? `added ${safeLine(shown)} to the ${scope} sources (${rows} packages)\n`
      : `${safeLine(shown)} is already a ${scope} source; fetched it again (${rows} packages)\n`,
  );
  return 0;
}

/** Fetch the remote sources of `scopes` again (only `name` when given); 1 when any failed. */
async function updateSources(
  input: CommandInput<SourcesValues>,
  context: CommandContext,
  scopes: readonly PackageScope[],
  name: string | undefined,
): Promise<number> {
  const { io } = input;
  const { environment } = context;
  const remotes = scopes.flatMap((scope) =>
    readScopeSources(environment, scope).sources.flatMap((source) =>
      source.type === "remote" &&
      (name === undefined || sourceName(source) === name || source.url === name)
        ? [{ scope, source }]
        : [],
    ),
  );
  if (name !== undefined && remotes.length === 0)
    throw new SkillshelfError("source_not_added", `${name} is not a remote source of this scope`);
  const results: { name: string; scope: PackageScope; rows: number; diagnostics: Diagnostic[] }[] =
    [];
  for (const { scope, source } of remotes) {
    const shown = sourceName(source);
    try {
      const fetched = await fetchWithProgress(io, environment, source, scope);
      results.push({
        name: shown,
        scope,
        rows: fetched.rows,
        diagnostics: [],
      });
    } catch (error) {
      if (!isSkillshelfError(error)) throw error;
      results.push({
        name: shown,
        scope,
        rows: 0,
        diagnostics: [
          createDiagnostic(
            "error",
            error.code,
            `${shown}: ${error.message}; the last fetch is kept`,
            {
              hint: error.hint,
            },
          ),
        ],
      });
    }
  }
  const failed = results.some((result) => result.diagnostics.length > 0);
  if (input.values.json) {
    printJson(io, context, {
      updated: results.map((result) => ({
        ...result,
        diagnostics: result.diagnostics.map(publicDiagnostic),
      })),
    });
    return failed ? 1 : 0;
  }
  const paint = painter(io.color);
  for (const result of results)
    if (result.diagnostics.length === 0)
      io.stdout(`updated ${safeLine(result.name)} (${result.scope}, ${result.rows} packages)\n`);
    else
      for (const diagnostic of result.diagnostics)
        io.stderr(formatDiagnostic(diagnostic, context.style, paint));
  if (results.length === 0) io.stdout("no remote sources to update\n");
  return failed ? 1 : 0;
}

async function fetchWithProgress(
  io: CliIo,
  environment: Environment,
  remote: RemoteIndex,
  scope: PackageScope,
): ReturnType<typeof fetchRemoteIndex> {
  const progress = progressLine(io);
  progress.update(`fetching ${safeLine(remote.url)} …`);
  try {
    return await fetchRemoteIndex(
      environment,
      remote,
      changeStageOptions(environment, scope, { texts: [], allowMcpCommand: false }),
    );
  } finally {
    progress.done();
  }
}

// --- internal ---

function closestAction(action: string): string | undefined {
  const found = closest(action, ACTIONS);
  return found === undefined ? undefined : `skillshelf sources ${found}`;
}

/** Print the indexes as a table (or JSON) with their findings; 1 when any has an error. */
function printIndexes(
  indexes: readonly ListedIndex[],
  input: CommandInput<SourcesValues>,
  context: CommandContext,
): number {
  const { io } = input;
  const { style } = context;
  const failed = indexes.some((index) =>
    index.diagnostics.some((diagnostic) => diagnostic.severity === "error"),
  );
  if (input.values.json) {
    printJson(io, context, {
      indexes: indexes.map((index) => ({
        ...index,
        diagnostics: index.diagnostics.map(publicDiagnostic),
      })),
    });
    return failed ? 1 : 0;
  }
  const paint = painter(io.color);
  const rows = indexes.map((index) => [
    index.scope,
    index.kind,
    index.format ?? "-",
    String(index.rows),
    index.kind === "remote" ? index.name : displayPath(index.path, style),
  ]);
  io.stdout(formatTable(["SCOPE", "KIND", "FORMAT", "ROWS", "INDEX"], rows, paint));
  for (const diagnostic of indexes.flatMap((index) => index.diagnostics))
    io.stdout(formatDiagnostic(diagnostic, style, paint));
  return failed ? 1 : 0;
}

function listIndexes(environment: Environment, scopes: readonly PackageScope[]): ListedIndex[] {
  const listed: ListedIndex[] = [];
  for (const scope of scopes) {
    const own = scopeIndexPath(environment, scope);
    if (existsSync(own)) listed.push(describe(own, own, scope, "own"));
    const sources = readScopeSources(environment, scope);
    for (const source of sources.sources)
      listed.push(
        source.type === "path"
          ? describe(source.path, source.path, scope, "added")
          : describe(source.cache, sourceName(source), scope, "remote"),
      );
    if (sources.diagnostics.length > 0)
      listed.push({
        path: sources.diagnostics[0]?.path ?? "",
        name: sources.diagnostics[0]?.path ?? "",
        scope,
        kind: "added",
        format: undefined,
        rows: 0,
        diagnostics: sources.diagnostics,
      });
  }
  return listed;
}

function describe(
  path: string,
  name: string,
  scope: PackageScope,
  kind: ListedIndex["kind"],
): ListedIndex {
  const located = locateIndex(path);
  if (located === undefined)
    return {
      path,
      name,
      scope,
      kind,
      format: undefined,
      rows: 0,
      diagnostics: [
        kind === "remote"
          ? createDiagnostic(
              "warning",
              "index_not_fetched",
              `${name} has not been fetched on this machine`,
            )
          : createDiagnostic("error", "index_missing", `${path} holds no index`, { path }),
      ],
    };
  const index = readIndex(located);
  return {
    path: located,
    name,
    scope,
    kind,
    format: index.format,
    rows: index.rows.length,
    diagnostics: index.diagnostics,
  };
}
