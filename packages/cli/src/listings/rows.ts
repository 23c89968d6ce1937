import type { CollisionGroup } from "@skillshelf/collision";
import {
  type Diagnostic,
  type ResourceFolder,
  type ResourceKind,
  type ResourcePlace,
  type ResourceSource,
  resourceFolder,
  type Scope,
} from "@skillshelf/core";
import { KINDS, type ReadPass } from "@skillshelf/resources";
import { displayPath, formatTable, type Paint, type PathStyle, plural } from "../format.js";

/** The fields every `list --json` row has, whatever its kind. */
export interface BaseRow {
  readonly name: string;
  readonly description: string | null;
  readonly path: string;
  readonly scope: Scope;
  readonly source: ResourceSource;
  readonly trusted: boolean;
}

/** A row plus what it shadows; with `--all`, a losing copy carries `shadowedBy` instead. */
export type ListedRow<R extends BaseRow> = R & {
  readonly shadows: readonly string[];
  readonly shadowedBy?: string;
};

/** What `list` lists: each resource folder's kind, and installed packages. */
export type ListKind = ResourceFolder | "packages";

/** One kind's part of `list`: its JSON key, rows, diagnostics, and text rendering. */
export interface Listing {
  readonly key: ListKind;
  readonly rows: readonly ListedRow<BaseRow>[];
  readonly diagnostics: readonly Diagnostic[];
  readonly text: (style: PathStyle, paint: Paint) => string;
}

/** A text column: its title and the cell of a row. A status column says "shadowed" for a losing copy. */
export interface Column<R> {
  readonly title: string;
  readonly cell: (row: ListedRow<R & BaseRow>) => string;
  readonly status?: boolean;
}

/**
 * Rows for the winners, each listing the paths it shadows; with `all`, each losing copy follows
 * its winner, marked `shadowedBy`.
 */
export function listedRows<T extends { readonly path: string }, R extends BaseRow>(
  items: readonly T[],
  collisions: readonly CollisionGroup<T>[],
  all: boolean,
  toRow: (item: T) => R,
): ListedRow<R>[] {
  const losersOf = new Map(
    collisions.map((group) => [group.winner, group.losers.map((loss) => loss.item)]),
  );
  const rows: ListedRow<R>[] = [];
  // assigned, not spread: a row's getters (a skill's hash) stay unread until JSON asks for them
  for (const item of items) {
    const losers = losersOf.get(item) ?? [];
    rows.push(Object.assign(toRow(item), { shadows: losers.map((loser) => loser.path) }));
    if (all)
      for (const loser of losers)
        rows.push(Object.assign(toRow(loser), { shadows: [], shadowedBy: item.path }));
  }
  return rows;
}

/**
 * The text of one kind: a table (name first, path last, shadowed copies indented and marked) and
 * a summary line, or "No <nouns> found."
 */
export function renderListing<R extends BaseRow>(options: {
  readonly rows: readonly ListedRow<R>[];
  readonly noun: string;
  readonly nouns: string;
  readonly columns: readonly Column<R>[];
  readonly summary: (effective: readonly ListedRow<R>[]) => string;
  readonly style: PathStyle;
  readonly paint: Paint;
}): string {
  const { rows, noun, nouns, columns, style, paint } = options;
  const effective = rows.filter((row) => row.shadowedBy === undefined);
  if (effective.length === 0) return `No ${nouns} found.\n`;
  const table = formatTable(
    ["NAME", ...columns.map((column) => column.title), "PATH"],
    rows.map((row) => [
      row.shadowedBy === undefined ? row.name : `  ${row.name}`,
      ...columns.map((column) =>
        row.shadowedBy !== undefined && column.status === true ? "shadowed" : column.cell(row),
      ),
      displayPath(row.path, style) +
        (row.shadows.length > 0 ? ` (shadows ${row.shadows.length})` : ""),
    ]),
    paint,
  );
  const shadowed = effective.reduce((sum, row) => sum + row.shadows.length, 0);
  const listedAll = rows.length > effective.length;
  const shadowNote =
    shadowed === 0
      ? ""
      : ` ${plural(shadowed, "shadowed copy", "shadowed copies")}${listedAll ? "" : " (--all lists them)"}.`;
  const summary = options.summary(effective);
  return `${table}\n${plural(effective.length, noun, nouns)}${summary === "" ? "." : `: ${summary}.`}${shadowNote}\n`;
}

/** `trusted` rows as the model sees them: trusted, or discovery-only. */
export function trustColumn(row: BaseRow): string {
  return row.trusted ? "trusted" : "discovery-only";
}

/** A kind's listing with the columns every kind has: what `list` shows of a kind with no listing of its own. */
export function plainListing(pass: ReadPass, kind: ResourceKind, all: boolean): Listing {
  const result: {
    readonly items: readonly PlainItem[];
    readonly collisions: readonly CollisionGroup<PlainItem>[];
    readonly diagnostics: readonly Diagnostic[];
  } = pass.load(kind);
  const rows = listedRows(
    result.items,
    result.collisions,
    all,
    (item): BaseRow => ({
      name: item.name,
      description: item.description ?? null,
      path: item.path,
      scope: item.scope,
      source: item.source,
      trusted: item.trusted,
    }),
  );
  const { one, many } = KINDS[kind].nouns;
  return {
    key: resourceFolder(kind),
    rows,
    diagnostics: result.diagnostics,
    text: (style, paint) =>
      renderListing({
        rows,
        noun: one,
        nouns: many,
        columns: PLAIN_COLUMNS,
        style,
        paint,
        summary: () => "",
      }),
  };
}

/** What every kind's resource has. */
type PlainItem = ResourcePlace & {
  readonly name: string;
  readonly description?: string | undefined;
};

const PLAIN_COLUMNS: readonly Column<BaseRow>[] = [
  { title: "SOURCE", cell: (row) => row.source },
  { title: "SCOPE", cell: (row) => row.scope },
  { title: "TRUST", cell: trustColumn, status: true },
];
