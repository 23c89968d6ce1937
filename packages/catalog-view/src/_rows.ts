import { createDiagnostic, type Diagnostic } from "@skillshelf/core";
import { oneLine } from "./_sanitize.js";
import type { CatalogBlock, CatalogInput } from "./types.js";

/** A row ready to render: its author text made safe, its haystack for queries. */
export interface PreparedRow {
  readonly block: CatalogBlock;
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly source: string;
  readonly scope: string;
  readonly path: string;
  readonly drifted: boolean;
  readonly category: string;
  readonly origin: string;
  readonly state: string;
  readonly haystack: string;
}

export const BLOCKS: readonly CatalogBlock[] = ["ready", "session", "package", "marketplace"];
const MAX_NAME = 128;
const MAX_DESCRIPTION = 1024;
const MAX_FIELD = 512;

/**
 * Turn the input into rows in listing order: blocks in order, rows by name within each (then by
 * relevance, when scores are given, filling only the scored rows' places). Rows without a name are
 * refused; overlong or unsafe text is cut or cleaned, with an info diagnostic.
 */
export function prepareRows(
  input: CatalogInput,
  diagnostics: Diagnostic[],
): { rows: PreparedRow[]; scored: Set<string> } {
  const rows: PreparedRow[] = [];
  const field = (text: string | undefined, key: string, max = MAX_FIELD) => {
    const result = oneLine(text ?? "", max);
    if (result.clipped)
      diagnostics.push(
        createDiagnostic(
          "info",
          "row_clipped",
          `${key} of a catalog row was cut to ${max} characters`,
          undefined,
          { key: key },
        ),
      );
    return result.text;
  };
  const add = (
    block: CatalogBlock,
    key: string,
    fields: Omit<PreparedRow, "block" | "key" | "name" | "haystack"> & { name: string },
    haystack: string,
  ) => {
    const name = field(fields.name, "name", MAX_NAME);
    if (name === "") {
      diagnostics.push(
        createDiagnostic(
          "warning",
          "row_invalid",
          `a ${block} row has no name and is not listed`,
          undefined,
          { key },
        ),
      );
      return;
    }
    rows.push({
      ...fields,
      block,
      key,
      name,
      haystack: `${name.replaceAll("-", " ")} ${haystack}`,
    });
  };
  for (const skill of input.skills ?? []) {
    const block =
      skill.block ??
      (skill.source === "skillshelf" || skill.source === "package" ? "ready" : "session");
    const description = field(skill.description, "description", MAX_DESCRIPTION);
    add(
      block,
      `${block}:${skill.path}`,
      {
        name: skill.name,
        description,
        source: field(skill.source, "source"),
        scope: field(skill.scope, "scope"),
        path: field(skill.path, "path"),
        drifted: skill.drifted === true,
        category: "",
        origin: "",
        state: "",
      },
      `${description} ${(skill.triggers ?? []).join(" ")}`,
    );
  }
  for (const pkg of input.packages ?? []) {
    add(
      "package",
      `package:${pkg.scope}:${pkg.path}`,
      {
        name: pkg.name,
        description: "",
        source: "",
        scope: field(pkg.scope, "scope"),
        path: field(pkg.path, "path"),
        drifted: false,
        category: "",
        origin: field(pkg.origin, "origin"),
        state: field(pkg.state, "state"),
      },
      pkg.skills.map((skill) => skill.replaceAll("-", " ")).join(" "),
    );
  }
  for (const offer of input.marketplace ?? []) {
    const description = field(offer.description, "description", MAX_DESCRIPTION);
    const category = field(offer.category, "category");
    add(
      "marketplace",
      `marketplace:${offer.sourceUrl}`,
      {
        name: offer.name,
        description,
        source: "",
        scope: "",
        path: "",
        drifted: false,
        category,
        origin: "",
        state: "",
      },
      `${description} ${category} ${(offer.triggers ?? []).join(" ")}`,
    );
  }
  return orderRows(rows, input.relevance);
}

// --- internal ---

function orderRows(
  rows: PreparedRow[],
  relevance: CatalogInput["relevance"],
): { rows: PreparedRow[]; scored: Set<string> } {
  const byBlock = new Map(BLOCKS.map((block) => [block, [] as PreparedRow[]]));
  for (const row of rows) byBlock.get(row.block)?.push(row);
  const scores =
    relevance === undefined
      ? undefined
      : relevance.scores instanceof Map
        ? relevance.scores
        : new Map(Object.entries(relevance.scores));
  const scored = new Set<string>();
  const ordered: PreparedRow[] = [];
  for (const block of BLOCKS) {
    const blockRows = (byBlock.get(block) ?? []).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
    );
    if (scores !== undefined) rankWithin(blockRows, scores, scored);
    ordered.push(...blockRows);
  }
  return { rows: ordered, scored };
}

/** Sort the scored rows by score, highest first, into the places scored rows held; unscored rows stay put. */
function rankWithin(
  rows: PreparedRow[],
  scores: ReadonlyMap<string, number>,
  scored: Set<string>,
): void {
  const places: number[] = [];
  rows.forEach((row, index) => {
    if (!Number.isFinite(scores.get(row.name))) return;
    places.push(index);
    scored.add(row.key);
  });
  const sorted = places
    .map((index) => rows[index] as PreparedRow)
    .sort((a, b) => (scores.get(b.name) as number) - (scores.get(a.name) as number));
  places.forEach((place, index) => {
    rows[place] = sorted[index] as PreparedRow;
  });
}
