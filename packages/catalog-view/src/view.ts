import {
  createDiagnostic,
  type Diagnostic,
  isSearchable,
  type MatchMode,
  matchLexical,
  parseLexicalQuery,
} from "@skillshelf/core/listing";
import { type PageFacts, pageNote } from "./_notes.js";
import { emptyText, renderPage } from "./_render.js";
import {
  haystackOf,
  type PreparedRow,
  prepareRows,
  rowKey,
  type ShownRow,
  showRow,
  withDescription,
} from "./_rows.js";
import type { CatalogInput, CatalogView } from "./types.js";
import { listing, resolveWording, type Wording } from "./wording.js";

/** Most rows one page may hold. */
export const MAX_LIMIT = 200;

/** The shortest a description is cut to by the `shorten` fit, in characters (docs/decisions.md). */
export const SHORTEN_FLOOR = 80;

/**
 * Render what a model may know about skills: the ready, session, package and marketplace blocks
 * (in that order, which is also the order overflow drops them), optionally narrowed by a query
 * (every word, else any word) and reordered by relevance within blocks, paged by `offset` and
 * `limit`, and fitted to `budget` UTF-8 bytes by rendering and bisecting over row counts (with
 * `fit: "shorten"`, the longest descriptions are first cut at a word boundary, never below
 * `SHORTEN_FLOOR` characters, so more rows fit before any is dropped). The protocol line is
 * always kept; when not even an empty page fits, a compact fallback says the listing does not
 * fit, and when not even that fits the text is empty (`fits: false`, with a
 * `catalog_budget_too_small` warning): the text never exceeds the budget. `nextOffset` always
 * moves forward, so paging visits every row exactly once. Never throws on bad rows: they are
 * cleaned or refused with a diagnostic.
 */
export function buildCatalogView(input: CatalogInput): CatalogView {
  const diagnostics: Diagnostic[] = [];
  const { rows, scored } = prepareRows(input, diagnostics);
  const wording = resolveWording(
    input.wording,
    (input.marketplace ?? []).length > 0,
    Math.max(0, Math.floor(input.hidden ?? 0)),
  );
  const format = input.format ?? "text";
  const query = input.query?.trim() === "" ? undefined : input.query;
  const { matching, matchMode, queryIgnored } = applyQuery(rows, query);
  const offset = clampOffset(input.offset);
  const limit = clampLimit(input.limit);
  const window = matching.slice(offset, offset + limit);
  const budget =
    input.budget === undefined ? Number.POSITIVE_INFINITY : Math.max(0, Math.floor(input.budget));

  const facts = (
    shown: number,
    budgetLimited: boolean,
    steppedOver: string | undefined,
  ): PageFacts => {
    const end = offset + shown + (steppedOver === undefined ? 0 : 1);
    const page = window.slice(0, shown);
    return {
      query,
      queryIgnored,
      matchMode,
      total: matching.length,
      catalogTotal: rows.length,
      shown,
      offset,
      nextOffset: end < matching.length ? end : undefined,
      budgetLimited,
      steppedOver,
      rankedBy:
        input.relevance !== undefined && page.some((row) => scored.has(row))
          ? input.relevance.source
          : undefined,
    };
  };
  const render = (page: readonly ShownRow[], pageFacts: PageFacts) =>
    renderPage(format, page, {
      wording,
      note: mentionsAnything(pageFacts) ? pageNote(pageFacts, wording) : "",
      locations: input.locations !== false,
    });
  const finish = (text: string, page: readonly ShownRow[], pageFacts: PageFacts): CatalogView => {
    if (bytes(text) <= budget) return view(text, page, pageFacts, diagnostics, true);
    diagnostics.push(
      createDiagnostic(
        "warning",
        "catalog_budget_too_small",
        `a budget of ${budget} bytes cannot carry even the shortest listing (${bytes(text)} bytes)`,
        { details: { budget, needed: bytes(text) } },
      ),
    );
    return view("", [], { ...pageFacts, shown: 0, nextOffset: undefined }, diagnostics, false);
  };
  // the budget cannot carry even an empty page: say how to narrow; paging cannot help
  const fallback = () =>
    finish(compactFallback(matching.length, matchMode !== null, wording), [], {
      ...facts(0, true, undefined),
      nextOffset: undefined,
    });

  if (rows.length === 0 && query === undefined)
    return finish(emptyText(wording), [], facts(0, false, undefined));
  if (window.length === 0) {
    const emptyFacts = facts(0, false, undefined);
    const text = render([], emptyFacts);
    return bytes(text) <= budget ? finish(text, [], emptyFacts) : fallback();
  }

  // rows are cleaned for showing once, and only as many as could fit
  const mostRows =
    budget === Number.POSITIVE_INFINITY ? window.length : maxRowsWithin(window, budget);
  const shown = window.slice(0, mostRows).map((row) => showRow(row, diagnostics));
  const attempt = (rows: readonly ShownRow[], budgetLimited: boolean) => {
    const pageFacts = facts(rows.length, budgetLimited, undefined);
    const text = render(rows, pageFacts);
    return bytes(text) <= budget ? { text, rows, facts: pageFacts } : undefined;
  };
  const shorten = input.fit === "shorten";
  // with the shorten fit: the page of `count` rows with the longest descriptions that fit
  const shortened = (count: number, budgetLimited: boolean) =>
    largestFit(shown.slice(0, count), (rows) => attempt(rows, budgetLimited));

  // the whole window, when it fits (always, without a budget)
  if (mostRows === window.length) {
    const whole = attempt(shown, false) ?? (shorten ? shortened(shown.length, false) : undefined);
    if (whole !== undefined) return finish(whole.text, whole.rows, whole.facts);
  }

  // the largest page of at least one row that fits, by bisection over row counts
  const candidates = shorten ? shortenAll(shown, SHORTEN_FLOOR) : shown;
  let best: { text: string; rows: readonly ShownRow[]; facts: PageFacts } | undefined;
  let low = 1;
  let high = Math.min(window.length - 1, mostRows);
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const page = attempt(candidates.slice(0, middle), true);
    if (page !== undefined) {
      best = page;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  if (best !== undefined && shorten) best = shortened(best.rows.length, true) ?? best;
  if (best !== undefined) return finish(best.text, best.rows, best.facts);

  // not even one row fits: the zero-row page steps over the first row, naming it
  const zeroFacts = facts(0, true, window[0]?.name);
  const zero = render([], zeroFacts);
  return bytes(zero) <= budget ? finish(zero, [], zeroFacts) : fallback();
}

// --- internal ---

function applyQuery(
  rows: PreparedRow[],
  query: string | undefined,
): { matching: PreparedRow[]; matchMode: MatchMode | null; queryIgnored: boolean } {
  if (query === undefined) return { matching: rows, matchMode: null, queryIgnored: false };
  const parsed = parseLexicalQuery(query);
  if (!isSearchable(parsed)) return { matching: rows, matchMode: null, queryIgnored: true };
  const haystacks = new Map(rows.map((row) => [row, haystackOf(row)]));
  const matches = (row: PreparedRow, mode: MatchMode) =>
    matchLexical(parsed, haystacks.get(row) as string, mode);
  const all = rows.filter((row) => matches(row, "all"));
  if (all.length > 0) return { matching: all, matchMode: "all", queryIgnored: false };
  return {
    matching: rows.filter((row) => matches(row, "any")),
    matchMode: "any",
    queryIgnored: false,
  };
}

function clampOffset(offset: number | undefined): number {
  return offset === undefined || !Number.isFinite(offset) ? 0 : Math.max(0, Math.floor(offset));
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || Number.isNaN(limit)) return Number.POSITIVE_INFINITY;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}

function bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** How many leading rows could fit at all, judged by their names alone: an upper bound for the bisection. */
function maxRowsWithin(rows: readonly PreparedRow[], budget: number): number {
  let total = 0;
  for (let index = 0; index < rows.length; index++) {
    total += bytes((rows[index] as PreparedRow).name) + 1;
    if (total > budget) return index;
  }
  return rows.length;
}

function mentionsAnything(facts: PageFacts): boolean {
  return (
    facts.queryIgnored ||
    facts.matchMode !== null ||
    facts.offset > 0 ||
    facts.nextOffset !== undefined ||
    facts.steppedOver !== undefined ||
    facts.rankedBy !== undefined
  );
}

function compactFallback(count: number, filtered: boolean, wording: Wording): string {
  const narrow = wording.features.listTool
    ? `; narrow it with ${listing(wording, 'query="<terms>"')} or raise the budget in a fresh turn`
    : "";
  return `Available skills: ${count}${filtered ? " matching" : ""}. This call's budget cannot carry the listing${narrow}.`;
}

/**
 * The rows with their descriptions cut to the largest cap (from the longest description down to
 * `SHORTEN_FLOOR`) under which `attempt` succeeds, by bisection; `undefined` when even the floor fails.
 */
function largestFit<T>(
  rows: readonly ShownRow[],
  attempt: (rows: readonly ShownRow[]) => T | undefined,
): T | undefined {
  const longest = Math.max(0, ...rows.map((row) => characters(row.description)));
  let found: T | undefined;
  let low = SHORTEN_FLOOR;
  let high = longest - 1;
  while (low <= high) {
    const cap = Math.floor((low + high) / 2);
    const result = attempt(shortenAll(rows, cap));
    if (result !== undefined) {
      found = result;
      low = cap + 1;
    } else high = cap - 1;
  }
  return found;
}

/** Every description longer than `cap` characters cut at a word boundary, ending in `…`. */
function shortenAll(rows: readonly ShownRow[], cap: number): ShownRow[] {
  return rows.map((row) =>
    characters(row.description) <= cap
      ? row
      : withDescription(row, cutAtWord(row.description, cap)),
  );
}

function cutAtWord(text: string, cap: number): string {
  const kept = [...text].slice(0, cap - 1).join("");
  const space = kept.lastIndexOf(" ");
  return `${(space >= kept.length / 2 ? kept.slice(0, space) : kept).trimEnd()}…`;
}

function characters(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

function view(
  text: string,
  page: readonly ShownRow[],
  facts: PageFacts,
  diagnostics: Diagnostic[],
  fits: boolean,
): CatalogView {
  return {
    text,
    fits,
    shortened: page.filter((row) => row.shortened === true).map((row) => row.name),
    rows: page.map((row) => ({
      kind: row.block,
      name: row.name,
      line: row.line,
      drifted: row.drifted,
      key: rowKey(row),
    })),
    total: facts.total,
    shown: page.length,
    nextOffset: facts.nextOffset,
    filtered: facts.matchMode !== null,
    matchMode: facts.matchMode,
    budgetLimited: facts.budgetLimited,
    rankedBy: facts.rankedBy,
    driftedNames: page.filter((row) => row.drifted).map((row) => row.name),
    diagnostics,
  };
}
