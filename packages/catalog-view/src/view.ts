import {
  type Diagnostic,
  isSearchable,
  type MatchMode,
  matchLexical,
  parseLexicalQuery,
} from "@skillshelf/core";
import { type PageFacts, pageNote } from "./_notes.js";
import { emptyText, renderPage, textLine } from "./_render.js";
import { type PreparedRow, prepareRows } from "./_rows.js";
import type { CatalogInput, CatalogView } from "./types.js";
import { listing, resolveWording, type Wording } from "./wording.js";

/** Most rows one page may hold. */
export const MAX_LIMIT = 200;

/**
 * Render what a model may know about skills: the ready, session, package and marketplace blocks
 * (in that order, which is also the order overflow drops them), optionally narrowed by a query
 * (every word, else any word) and reordered by relevance within blocks, paged by `offset` and
 * `limit`, and fitted to `budget` UTF-8 bytes by rendering and bisecting over row counts. The
 * protocol line is always kept; when not even an empty page fits, a compact fallback says how to
 * narrow the listing. `nextOffset` always moves forward, so paging visits every row exactly once.
 * Never throws on bad rows: they are cleaned or refused with a diagnostic.
 */
export function buildCatalogView(input: CatalogInput): CatalogView {
  const diagnostics: Diagnostic[] = [];
  const { rows, scored } = prepareRows(input, diagnostics);
  const wording = resolveWording(input.wording, (input.marketplace ?? []).length > 0);
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
        input.relevance !== undefined && page.some((row) => scored.has(row.key))
          ? input.relevance.source
          : undefined,
    };
  };
  const render = (page: readonly PreparedRow[], pageFacts: PageFacts) =>
    renderPage(format, page, {
      wording,
      note: mentionsAnything(pageFacts) ? pageNote(pageFacts, wording) : "",
    });

  // the budget cannot carry even an empty page: say how to narrow; paging cannot help
  const fallback = () =>
    view(
      compactFallback(matching.length, matchMode !== null, wording),
      [],
      { ...facts(0, true, undefined), nextOffset: undefined },
      diagnostics,
    );

  if (rows.length === 0 && query === undefined)
    return view(emptyText(wording), [], facts(0, false, undefined), diagnostics);

  // the whole window, when it fits
  const fullFacts = facts(window.length, false, undefined);
  if (window.length > 0 && lowerBound(window, window.length) <= budget) {
    const text = render(window, fullFacts);
    if (bytes(text) <= budget) return view(text, window, fullFacts, diagnostics);
  } else if (window.length === 0) {
    const text = render([], fullFacts);
    if (bytes(text) <= budget) return view(text, [], fullFacts, diagnostics);
    return fallback();
  }

  // the largest page of at least one row that fits, by bisection over row counts
  let best: { text: string; facts: PageFacts } | undefined;
  let low = 1;
  let high = Math.min(window.length - 1, maxRowsWithin(window, budget));
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const pageFacts = facts(middle, true, undefined);
    const text = render(window.slice(0, middle), pageFacts);
    if (bytes(text) <= budget) {
      best = { text, facts: pageFacts };
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  if (best !== undefined)
    return view(best.text, window.slice(0, best.facts.shown), best.facts, diagnostics);

  // not even one row fits: the zero-row page steps over the first row, naming it
  const zeroFacts = facts(0, true, window[0]?.name);
  const zero = render([], zeroFacts);
  if (bytes(zero) <= budget) return view(zero, [], zeroFacts, diagnostics);
  return fallback();
}

// --- internal ---

function applyQuery(
  rows: PreparedRow[],
  query: string | undefined,
): { matching: PreparedRow[]; matchMode: MatchMode | null; queryIgnored: boolean } {
  if (query === undefined) return { matching: rows, matchMode: null, queryIgnored: false };
  const parsed = parseLexicalQuery(query);
  if (!isSearchable(parsed)) return { matching: rows, matchMode: null, queryIgnored: true };
  const all = rows.filter((row) => matchLexical(parsed, row.haystack, "all"));
  if (all.length > 0) return { matching: all, matchMode: "all", queryIgnored: false };
  return {
    matching: rows.filter((row) => matchLexical(parsed, row.haystack, "any")),
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

/** Bytes the first `count` rows' own lines take: no page with them can be smaller. */
function lowerBound(rows: readonly PreparedRow[], count: number): number {
  let total = 0;
  for (let index = 0; index < count; index++) total += bytes((rows[index] as PreparedRow).name) + 1;
  return total;
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
  return `Available skills: ${count}${filtered ? " matching" : ""}. This call's budget cannot carry the listing; narrow it with ${listing(wording, 'query="<terms>"')} or raise the budget in a fresh turn.`;
}

function view(
  text: string,
  page: readonly PreparedRow[],
  facts: PageFacts,
  diagnostics: Diagnostic[],
): CatalogView {
  return {
    text,
    rows: page.map((row) => ({
      kind: row.block,
      name: row.name,
      line: textLine(row),
      drifted: row.drifted,
      key: row.key,
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
