import { resolve } from "node:path";
import { PACKAGE_KINDS, type PackageKind } from "@skillshelf/core";
import { discoverLibrary, type IndexRow, searchIndexRows } from "@skillshelf/sources";
import { type PackageCopy, readPackageSnapshot } from "@skillshelf/store";
import { parseCommandArgs } from "../args.js";
import { commandContext, publicDiagnostic } from "../context.js";
import { displayPath, painter, plural, safeLine } from "../format.js";
import { type CliIo, UsageError } from "../io.js";
import { bundledIndexPath } from "../library.js";

export const SEARCH_USAGE = `Usage: skillshelf search <query> [--kind KIND] [--from INDEX…] [--json] [--cwd DIR]

Search every package index (the bundled examples, the user's and the project's library.yaml and
added sources, and --from indexes) for packages whose name, description, category, triggers or
provided resources match the query, and show where each is installed.

Options:
  --kind KIND    plugin, skill, agent, prompt or fleet (a plugin providing that kind matches too)
  --from INDEX   also search this index file (repeatable)
  --json         print {"version":1,"query":…,"matchMode":…,"results":[…],"diagnostics":[…]}
  --cwd DIR      the project folder (default: the current folder)
`;

/** One search hit in `search --json`: the index row and the installed copies of its package. */
type SearchResult = IndexRow & {
  readonly installed: readonly {
    readonly scope: string;
    readonly state: string;
    readonly version: string | undefined;
  }[];
};

export function runSearch(args: readonly string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(args, {
    kind: { type: "string" },
    from: { type: "string", multiple: true },
    json: { type: "boolean" },
    cwd: { type: "string" },
  });
  if (positionals.length === 0) throw new UsageError("name what to search for");
  const kind = values.kind as PackageKind | undefined;
  if (kind !== undefined && !PACKAGE_KINDS.includes(kind))
    throw new UsageError(`--kind ${kind} is not a package kind; use ${PACKAGE_KINDS.join(", ")}`);
  const { environment, style } = commandContext(values.cwd, io);
  const from = ((values.from as unknown as string[] | undefined) ?? []).map((path) =>
    resolve(environment.cwd, path),
  );
  const discovery = discoverLibrary(environment, { bundled: bundledIndexPath(), from });
  const query = positionals.join(" ");
  const found = searchIndexRows(discovery.rows, query, { kind });
  const copies = readPackageSnapshot(environment).copies;
  const results: SearchResult[] = found.rows.map((row) => ({
    ...row,
    installed: installedCopies(copies, row),
  }));
  if (values.json === true) {
    const output = {
      version: 1,
      query,
      matchMode: found.matchMode,
      results,
      diagnostics: discovery.diagnostics.map(publicDiagnostic),
    };
    io.stdout(`${JSON.stringify(output, null, 2)}\n`);
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
    io.stdout(paint("dim", `  from ${displayPath(result.index, style)}\n`));
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
