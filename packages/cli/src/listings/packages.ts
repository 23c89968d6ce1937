import type { PackageKind } from "@skillshelf/core";
import { classifyOrigin, type Origin } from "@skillshelf/inventory";
import type { ReadPass } from "@skillshelf/resources";
import type { CopyState, PackageCopy } from "@skillshelf/store";
import { sourceText } from "../_plan-text.js";
import type { PathStyle } from "../format.js";
import { type BaseRow, type Column, type ListedRow, type Listing, renderListing } from "./rows.js";

/** A `list --json` package row: one installed copy. */
interface PackageRow extends BaseRow {
  readonly kind: PackageKind | null;
  readonly version: string | null;
  readonly state: CopyState;
  readonly format: string | null;
  /**
   * Where the copy came from, by the one rule (`classifyOrigin`): index, local, git, archive or
   * import, with the path, URL, ref and commit. (`source` already names a row's resource source
   * in every listing, `package:<id>` here, so the install source lives in `origin`.)
   */
  readonly origin: Origin | null;
  /** The recorded install source as it would be typed again: `url//subfolder#ref`, a path. */
  readonly from: string | null;
}

const COLUMNS: readonly Column<PackageRow>[] = [
  { title: "KIND", cell: (row) => row.kind ?? "-" },
  { title: "VERSION", cell: (row) => row.version ?? "-" },
  { title: "SCOPE", cell: (row) => row.scope },
  { title: "STATE", cell: (row) => row.state, status: true },
  { title: "ORIGIN", cell: (row) => row.origin?.kind ?? "-" },
  { title: "FROM", cell: (row) => row.from ?? "-" },
];

/**
 * The installed package copies of both scopes: for each id the copy that counts (or, when no
 * copy is valid, every copy, so damaged ones show), with `all` also the copies it overrides.
 */
export function packageListing(pass: ReadPass, all: boolean, style: PathStyle): Listing {
  const { snapshot } = pass;
  const rows: ListedRow<PackageRow>[] = [];
  const byId = new Map<string, PackageCopy[]>();
  for (const copy of snapshot.copies) byId.set(copy.id, [...(byId.get(copy.id) ?? []), copy]);
  for (const copies of byId.values()) {
    const winner = copies.find((copy) => copy.effective);
    if (winner === undefined) {
      for (const copy of copies) rows.push({ ...toRow(copy, style), shadows: [] });
      continue;
    }
    const others = copies.filter((copy) => copy !== winner);
    rows.push({ ...toRow(winner, style), shadows: others.map((copy) => copy.dir) });
    if (all)
      for (const copy of others)
        rows.push({ ...toRow(copy, style), shadows: [], shadowedBy: winner.dir });
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

function toRow(copy: PackageCopy, style: PathStyle): PackageRow {
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
    origin:
      copy.record === undefined
        ? null
        : classifyOrigin({ kind: "record", record: copy.record }).origin,
    from: copy.record === undefined ? null : sourceText(copy.record.origin.source, style),
  };
}
