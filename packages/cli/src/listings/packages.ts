import type { PackageKind } from "@skillshelf/core";
import type { ReadPass } from "@skillshelf/resources";
import type { CopyState, PackageCopy } from "@skillshelf/store";
import { type BaseRow, type Column, type ListedRow, type Listing, renderListing } from "./rows.js";

/** A `list --json` package row: one installed copy. */
interface PackageRow extends BaseRow {
  readonly kind: PackageKind | null;
  readonly version: string | null;
  readonly state: CopyState;
  readonly format: string | null;
}

const COLUMNS: readonly Column<PackageRow>[] = [
  { title: "KIND", cell: (row) => row.kind ?? "-" },
  { title: "VERSION", cell: (row) => row.version ?? "-" },
  { title: "SCOPE", cell: (row) => row.scope },
  { title: "STATE", cell: (row) => row.state, status: true },
];

/**
 * The installed package copies of both scopes: for each id the copy that counts (or, when no
 * copy is valid, every copy, so damaged ones show), with `all` also the copies it overrides.
 */
export function packageListing(pass: ReadPass, all: boolean): Listing {
  const { snapshot } = pass;
  const rows: ListedRow<PackageRow>[] = [];
  for (const id of new Set(snapshot.copies.map((copy) => copy.id))) {
    const copies = snapshot.copies.filter((copy) => copy.id === id);
    const winner = copies.find((copy) => copy.effective);
    if (winner === undefined) {
      for (const copy of copies) rows.push({ ...toRow(copy), shadows: [] });
      continue;
    }
    const others = copies.filter((copy) => copy !== winner);
    rows.push({ ...toRow(winner), shadows: others.map((copy) => copy.dir) });
    if (all)
      for (const copy of others) rows.push({ ...toRow(copy), shadows: [], shadowedBy: winner.dir });
  }
  return {
    key: "packages",
    rows,
    diagnostics: [...snapshot.diagnostics, ...snapshot.copies.flatMap((copy) => copy.diagnostics)],
    text: (style, paint) =>
      renderListing({
        rows,
        noun: "installed package",
        nouns: "installed packages",
        columns: COLUMNS,
        style,
        paint,
        summary: (effective) =>
          `${effective.filter((row) => row.state === "loadable").length} loadable`,
      }),
  };
}

// --- internal ---

function toRow(copy: PackageCopy): PackageRow {
  return {
    name: copy.id,
    description: copy.manifest?.description ?? null,
    path: copy.dir,
    scope: copy.scope,
    source: `package:${copy.id}`,
    trusted: copy.record?.trust === "trusted",
    kind: copy.manifest?.kind ?? copy.record?.kind ?? null,
    version: copy.record?.version ?? copy.manifest?.version ?? null,
    state: copy.state,
    format: copy.record?.format ?? copy.manifest?.format ?? null,
  };
}
