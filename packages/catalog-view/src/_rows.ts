import { createDiagnostic, type Diagnostic } from "@skillshelf/core/listing";
import { cleanText, clipText } from "./_sanitize.js";
import type { CatalogBlock, CatalogInput } from "./types.js";

/** A row in listing order. Only its name is cleaned up front; the rest is cleaned when it is shown. */
export interface PreparedRow {
  readonly block: CatalogBlock;
  readonly name: string;
  readonly drifted: boolean;
  /** Identity within its block: the path, or a marketplace entry's source URL. */
  readonly identity: string;
  /** What a query matches besides the name: description, category, triggers, a package's skill names. */
  readonly searchText: string;
  readonly input: Readonly<Partial<Record<TextField, string | undefined>>>;
}

type TextField = "description" | "source" | "scope" | "path" | "category" | "origin" | "state";

/** A row as shown: every author-written field one safe line, and its line in the text format. */
export interface ShownRow extends Omit<PreparedRow, "input">, Readonly<Record<TextField, string>> {
  readonly line: string;
  /** Its description was cut to fit the budget. */
  readonly shortened?: true;
}

const BLOCKS: readonly CatalogBlock[] = ["ready", "session", "package", "marketplace"];
const MAX_NAME = 128;
const MAX_DESCRIPTION = 1024;
const MAX_FIELD = 512;

/** A row's stable key: `ready:<path>`, `session:<path>`, `package:<scope>:<path>`, `marketplace:<sourceUrl>`. */
export function rowKey(row: PreparedRow | ShownRow): string {
  return row.block === "package"
    ? `package:${"input" in row ? (row.input.scope ?? "") : row.scope}:${row.identity}`
    : `${row.block}:${row.identity}`;
}

/** What a query is matched against: the name with its hyphens as spaces, then the rest. */
export function haystackOf(row: PreparedRow): string {
  return `${row.name.replaceAll("-", " ")} ${row.searchText}`;
}

/** A row with its fields cleaned for showing (an info diagnostic for each field that had to be cut). */
export function showRow(row: PreparedRow, diagnostics: Diagnostic[]): ShownRow {
  const field = (key: TextField) =>
    safeField(
      row.input[key],
      key,
      key === "description" ? MAX_DESCRIPTION : MAX_FIELD,
      diagnostics,
    );
  const shown: { -readonly [K in keyof ShownRow]: ShownRow[K] } = {
    block: row.block,
    name: row.name,
    drifted: row.drifted,
    identity: row.identity,
    searchText: row.searchText,
    description: field("description"),
    source: field("source"),
    scope: field("scope"),
    path: field("path"),
    category: field("category"),
    origin: field("origin"),
    state: field("state"),
    line: "",
  };
  shown.line = textLine(shown);
  return shown;
}

/**
 * Turn the input into rows in listing order: blocks in order, rows by name within each (then by
 * relevance, when scores are given, filling only the scored rows' places). Rows without a name are
 * refused with a warning.
 */
export function prepareRows(
  input: CatalogInput,
  diagnostics: Diagnostic[],
): { rows: PreparedRow[]; scored: Set<PreparedRow> } {
  const byBlock: Record<CatalogBlock, PreparedRow[]> = {
    ready: [],
    session: [],
    package: [],
    marketplace: [],
  };
  const add = (
    block: CatalogBlock,
    rawName: string,
    identity: string,
    drifted: boolean,
    searchText: string,
    fields: PreparedRow["input"],
  ) => {
    const name = safeField(rawName, "name", MAX_NAME, diagnostics);
    if (name === "") {
      diagnostics.push(
        createDiagnostic("warning", "row_invalid", `a ${block} row has no name and is not listed`, {
          details: { identity },
        }),
      );
      return;
    }
    // a skill must be nameable in one word, as `/skill <name>` and the activation call take it
    if (block !== "package" && /\s/.test(name)) {
      diagnostics.push(
        createDiagnostic(
          "warning",
          "row_invalid",
          `the ${block} row "${name}" cannot be addressed by /skill <name> and is not listed`,
          { details: { identity, name } },
        ),
      );
      return;
    }
    byBlock[block].push({ block, name, identity, drifted, searchText, input: fields });
  };
  for (const skill of input.skills ?? []) {
    // only what was given for this session (explicit paths: scope `cli`) is not ready
    const block = skill.block ?? (skill.scope === "cli" ? "session" : "ready");
    const search =
      skill.triggers === undefined
        ? skill.description
        : `${skill.description} ${skill.triggers.join(" ")}`;
    add(block, skill.name, skill.path, skill.drifted === true, search, skill);
  }
  for (const pkg of input.packages ?? []) {
    add(
      "package",
      pkg.name,
      pkg.path,
      false,
      pkg.skills.map((skill) => skill.replaceAll("-", " ")).join(" "),
      pkg,
    );
  }
  for (const offer of input.marketplace ?? []) {
    const search = `${offer.description} ${offer.category ?? ""} ${(offer.triggers ?? []).join(" ")}`;
    add("marketplace", offer.name, offer.sourceUrl, false, search, offer);
  }
  const scores =
    input.relevance === undefined
      ? undefined
      : input.relevance.scores instanceof Map
        ? input.relevance.scores
        : new Map(Object.entries(input.relevance.scores));
  const scored = new Set<PreparedRow>();
  const rows: PreparedRow[] = [];
  for (const block of BLOCKS) {
    const blockRows = byBlock[block].sort(byNameThenIdentity);
    if (scores !== undefined) rankWithin(blockRows, scores, scored);
    rows.push(...blockRows);
  }
  return { rows, scored };
}

/** The row with its description cut to fit (its line follows). */
export function withDescription(row: ShownRow, description: string): ShownRow {
  const { line: _line, ...rest } = row;
  const changed = { ...rest, description, shortened: true as const };
  return { ...changed, line: textLine(changed) };
}

// --- internal ---

/** A row's line in the text format (also `CatalogRow.line`). */
function textLine(row: Omit<ShownRow, "line">): string {
  switch (row.block) {
    case "ready":
      return `- ${row.name}${row.drifted ? " [drifted]" : ""} (source: ${row.source}; scope: ${row.scope}): ${row.description}`;
    case "session":
      return `- ${row.name} (source: ${row.source}; scope: ${row.scope}; file: ${row.path}): ${row.description}`;
    case "package":
      return `- ${row.name} (scope: ${row.scope}; origin: ${row.origin}; state: ${row.state}; path: ${row.path})`;
    case "marketplace":
      return `- ${row.name}${row.category === "" ? "" : ` [${row.category}]`}: ${row.description}`;
  }
}

function safeField(
  text: string | undefined,
  key: string,
  max: number,
  diagnostics: Diagnostic[],
): string {
  const clean = cleanText(text ?? "");
  const clipped = clipText(clean, max);
  if (clipped === undefined) return clean;
  diagnostics.push(
    createDiagnostic(
      "info",
      "row_clipped",
      `the ${key} of a catalog row was cut to ${max} characters`,
      { details: { key } },
    ),
  );
  return clipped;
}

function byNameThenIdentity(a: PreparedRow, b: PreparedRow): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.identity < b.identity ? -1 : a.identity > b.identity ? 1 : 0;
}

/** Sort the scored rows by score, highest first, into the places scored rows held; unscored rows stay put. */
function rankWithin(
  rows: PreparedRow[],
  scores: ReadonlyMap<string, number>,
  scored: Set<PreparedRow>,
): void {
  const places: number[] = [];
  rows.forEach((row, index) => {
    if (!Number.isFinite(scores.get(row.name))) return;
    places.push(index);
    scored.add(row);
  });
  const sorted = places
    .map((index) => rows[index] as PreparedRow)
    .sort((a, b) => (scores.get(b.name) as number) - (scores.get(a.name) as number));
  places.forEach((place, index) => {
    rows[place] = sorted[index] as PreparedRow;
  });
}
