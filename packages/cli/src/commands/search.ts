import { resolve } from "node:path";
import type { PackageKind } from "@skillshelf/core";
import { discoverLibrary, type IndexRow, searchIndexRows } from "@skillshelf/sources";
import { type PackageCopy, readPackageSnapshot } from "@skillshelf/store";
import type { CommandInput } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { displayPath, type PathStyle, painter, plural, safeLine } from "../format.js";

/** One search hit in `search --json`: the index row and the installed copies of its package. */
type SearchResult = IndexRow & {
  readonly installed: readonly {
    readonly scope: string;
    readonly state: string;
    readonly version: string | undefined;
  }[];
};

export function runSearch(
  input: CommandInput<{
    readonly kind: PackageKind | undefined;
    readonly from: readonly string[];
    readonly json: boolean;
  }>,
): number {
  const { io, positionals } = input;
  const kind = input.values.kind;
  const context = input.context();
  const { environment, style } = context;
  const from = input.values.from.map((path) => resolve(environment.cwd, path));
  const discovery = discoverLibrary(environment, { from });
  const query = positionals.join(" ");
  const found = searchIndexRows(discovery.rows, query, { kind });
  const copies = readPackageSnapshot(environment).copies;
  const results: SearchResult[] = found.rows.map((row) => ({
    ...row,
    installed: installedCopies(copies, row),
  }));
  if (input.values.json) {
    printJson(io, context, {
      query,
      matchMode: found.matchMode,
      results,
      diagnostics: discovery.diagnostics.map(publicDiagnostic),
    });
    return 0;
  }
  const paint = painter(io.color);
  if (results.length === 0)
    io.stdout(
      `no package in ${plural(discovery.indexes.length, "index", "indexes")} matches "${safeLine(query)}"\n`,
    );
  else if (found.matchMode === "any")
    io.stdout(paint("dim", "no package matches every word; these match some\n"));
  for (const result of results) {
    const installed = result.installed.map((copy) => `${copy.scope} ${copy.state}`).join(", ");
    io.stdout(
      `${paint("bold", safeLine(result.name))} ${paint("dim", `${result.kind}${result.version === undefined ? "" : ` ${safeLine(result.version)}`}`)}${installed === "" ? "" : `  ${paint("green", `installed: ${installed}`)}`}\n`,
    );
    if (result.description !== "") io.stdout(`  ${safeLine(result.description)}\n`);
    io.stdout(paint("dim", `  from ${catalogName(result, style)}\n`));
  }
  const skipped = discovery.diagnostics.filter(
    (diagnostic) => diagnostic.severity === "error",
  ).length;
  if (skipped > 0)
    io.stderr(
      `skillshelf: ${plural(skipped, "index problem")} skipped rows; run "skillshelf sources list" for details\n`,
    );
  return 0;
}

// --- internal ---

function installedCopies(copies: readonly PackageCopy[], row: IndexRow): SearchResult["installed"] {
  return copies
    .filter(
      (copy) =>
        copy.id === row.name && (copy.manifest === undefined || copy.manifest.kind === row.kind),
    )
    .map((copy) => ({ scope: copy.scope, state: copy.state, version: copy.record?.version }));
}

// a path is shown as the user writes it (`~/…`); a name or URL as it is
function catalogName(row: IndexRow, style: PathStyle): string {
  return safeLine(row.catalog === row.index ? displayPath(row.index, style) : row.catalog);
}
