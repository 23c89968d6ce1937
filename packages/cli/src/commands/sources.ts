import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { createDiagnostic, type Diagnostic, type Environment } from "@skillshelf/core";
import {
  addScopeSource,
  type IndexScope,
  locateIndex,
  readIndex,
  readScopeSources,
  removeScopeSource,
  scopeIndexPath,
} from "@skillshelf/sources";
import { closest } from "../_suggest.js";
import { type CommandInput, flag, scopeValue, UsageError } from "../command.js";
import { type CommandContext, printJson, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, formatTable, painter } from "../format.js";
import { bundledIndexPath } from "../library.js";

/** One index in `sources list --json`. */
interface ListedIndex {
  readonly path: string;
  readonly scope: "bundled" | IndexScope;
  /** `own`: the scope's library.yaml; `added`: named by `sources add`. */
  readonly kind: "bundled" | "own" | "added";
  readonly format: "library" | "marketplace" | undefined;
  readonly rows: number;
  readonly diagnostics: readonly Diagnostic[];
}

const ACTIONS = ["list", "add", "remove"] as const;

export function runSources(input: CommandInput): number {
  const { io } = input;
  const [action = "", path] = input.positionals;
  if (!(ACTIONS as readonly string[]).includes(action))
    throw new UsageError(
      "usage_invalid_value",
      `${JSON.stringify(action)} is not an action of skillshelf sources; use list, add <path> or remove <path>`,
      closestAction(action),
    );
  const context = input.context();
  if (action === "list") {
    if (path !== undefined)
      throw new UsageError("usage_extra_argument", "sources list takes no path");
    const chosen = flag(input, "user") || flag(input, "project");
    const scopes: IndexScope[] = chosen ? [scopeValue(input, "user")] : ["user", "project"];
    return printIndexes(listIndexes(context.environment, scopes, !chosen), input, context);
  }
  if (path === undefined)
    throw new UsageError("usage_missing_argument", `sources ${action} needs the path of an index`);
  if (flag(input, "json"))
    throw new UsageError("usage_invalid_value", "--json applies to sources list");
  const scope = scopeValue(input, "user");
  const { environment, style } = context;
  const changed =
    action === "add"
      ? addScopeSource(environment, scope, path)
      : removeScopeSource(environment, scope, path);
  const shown = displayPath(
    locateIndex(resolve(environment.cwd, path)) ?? resolve(environment.cwd, path),
    style,
  );
  const message = {
    add: changed
      ? `added ${shown} to the ${scope} sources`
      : `${shown} is already a ${scope} source`,
    remove: changed
      ? `removed ${shown} from the ${scope} sources`
      : `${shown} is not a ${scope} source`,
  }[action];
  io.stdout(`${message}\n`);
  return action === "remove" && !changed ? 1 : 0;
}

// --- internal ---

function closestAction(action: string): string | undefined {
  const found = closest(action, ACTIONS);
  return found === undefined ? undefined : `did you mean skillshelf sources ${found}?`;
}

/** Print the indexes as a table (or JSON) with their findings; 1 when any has an error. */
function printIndexes(
  indexes: readonly ListedIndex[],
  input: CommandInput,
  context: CommandContext,
): number {
  const { io } = input;
  const { style } = context;
  const failed = indexes.some((index) =>
    index.diagnostics.some((diagnostic) => diagnostic.severity === "error"),
  );
  if (flag(input, "json")) {
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
    displayPath(index.path, style),
  ]);
  io.stdout(formatTable(["SCOPE", "KIND", "FORMAT", "ROWS", "INDEX"], rows, paint));
  for (const diagnostic of indexes.flatMap((index) => index.diagnostics))
    io.stdout(formatDiagnostic(diagnostic, style, paint));
  return failed ? 1 : 0;
}

function listIndexes(
  environment: Environment,
  scopes: readonly IndexScope[],
  withBundled: boolean,
): ListedIndex[] {
  const listed: ListedIndex[] = withBundled
    ? [describe(bundledIndexPath(), "bundled", "bundled")]
    : [];
  for (const scope of scopes) {
    const own = scopeIndexPath(environment, scope);
    if (existsSync(own)) listed.push(describe(own, scope, "own"));
    const sources = readScopeSources(environment, scope);
    for (const source of sources.sources) listed.push(describe(source, scope, "added"));
    if (sources.diagnostics.length > 0)
      listed.push({
        path: sources.diagnostics[0]?.path ?? "",
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
  scope: ListedIndex["scope"],
  kind: ListedIndex["kind"],
): ListedIndex {
  const located = locateIndex(path);
  if (located === undefined)
    return {
      path,
      scope,
      kind,
      format: undefined,
      rows: 0,
      diagnostics: [createDiagnostic("error", "index_missing", `${path} holds no index`, { path })],
    };
  const index = readIndex(located);
  return {
    path: located,
    scope,
    kind,
    format: index.format,
    rows: index.rows.length,
    diagnostics: index.diagnostics,
  };
}
