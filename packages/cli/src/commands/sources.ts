import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Diagnostic, Environment } from "@skillshelf/core";
import {
  addScopeSource,
  type IndexScope,
  locateIndex,
  readIndex,
  readScopeSources,
  removeScopeSource,
  scopeIndexPath,
} from "@skillshelf/sources";
import { parseCommandArgs, scopeOption } from "../args.js";
import { commandContext, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, formatTable, type PathStyle, painter } from "../format.js";
import { type CliIo, UsageError } from "../io.js";
import { bundledIndexPath } from "../library.js";

export const SOURCES_USAGE = `Usage: skillshelf sources list|add <path>|remove <path> [--user|--project] [--json] [--cwd DIR]

Manage the package indexes a scope searches and installs from. Each scope has its own
library.yaml; "add" names more: an index file (library.yaml, marketplace.json) or a folder holding
one (a checked-out marketplace repository). Indexes are merged in order: bundled examples, user,
project, --from; a later row replaces an earlier one of the same kind and name.

Options:
  --user       the user scope (default for add and remove)
  --project    the project scope
  --json       list: print {"version":1,"indexes":[…]}
  --cwd DIR    the project folder (default: the current folder)
`;

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

export function runSources(args: readonly string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(args, {
    user: { type: "boolean" },
    project: { type: "boolean" },
    json: { type: "boolean" },
    cwd: { type: "string" },
  });
  const [action, path, ...extra] = positionals;
  const context = commandContext(values.cwd, io);
  if (action === "list") {
    if (path !== undefined) throw new UsageError("sources list takes no path");
    const chosen = values.user === true || values.project === true;
    const scopes: IndexScope[] = chosen ? [scopeOption(values, "user")] : ["user", "project"];
    return printIndexes(
      listIndexes(context.environment, scopes, !chosen),
      values.json === true,
      context.style,
      io,
    );
  }
  if (action !== "add" && action !== "remove")
    throw new UsageError("name an action: list, add <path> or remove <path>");
  if (path === undefined || extra.length > 0)
    throw new UsageError(`sources ${action} takes exactly one path`);
  if (values.json === true) throw new UsageError("--json applies to sources list");
  const scope = scopeOption(values, "user");
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

/** Print the indexes as a table (or JSON) with their findings; 1 when any has an error. */
function printIndexes(
  indexes: readonly ListedIndex[],
  json: boolean,
  style: PathStyle,
  io: CliIo,
): number {
  const failed = indexes.some((index) =>
    index.diagnostics.some((diagnostic) => diagnostic.severity === "error"),
  );
  if (json) {
    const output = indexes.map((index) => ({
      ...index,
      diagnostics: index.diagnostics.map(publicDiagnostic),
    }));
    io.stdout(`${JSON.stringify({ version: 1, indexes: output }, null, 2)}\n`);
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
      diagnostics: [
        { severity: "error", code: "index_missing", message: `${path} holds no index`, path },
      ],
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
