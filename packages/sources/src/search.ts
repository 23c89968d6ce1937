import { type MatchMode, type PackageKind, rankLexical } from "@skillshelf/core";
import type { IndexRow } from "./types.js";

/** Rows that match a query, and whether all its words or only some matched. */
export interface IndexSearch {
  readonly rows: readonly IndexRow[];
  /** `null` when the query had nothing searchable and every row was kept. */
  readonly matchMode: MatchMode | null;
}

/**
 * Search index rows with the lexical matcher every query uses: a row's name, description,
 * category, triggers and `provides` hints are its text; rows matching every word win, else rows
 * matching any. Best match first: a name that is the query, then names holding it, then by where
 * the words hit (name above description above the rest); ties keep the rows' order. `kind` keeps
 * rows of that package kind or providing a resource of that kind (so `skill` also finds plugins
 * that provide skills).
 */
export function searchIndexRows(
  rows: readonly IndexRow[],
  query: string,
  options: { readonly kind?: PackageKind | undefined } = {},
): IndexSearch {
  const { kind } = options;
  const candidates =
    kind === undefined
      ? rows
      : rows.filter((row) => row.kind === kind || row.provides?.some((hint) => hint.kind === kind));
  const { items, matchMode } = rankLexical(candidates, query, (row) => [
    row.name,
    row.description,
    [
      row.category ?? "",
      ...(row.triggers ?? []),
      ...(row.provides ?? []).flatMap((hint) => [hint.name, hint.description ?? ""]),
    ].join(" "),
  ]);
  return { rows: items, matchMode };
}
