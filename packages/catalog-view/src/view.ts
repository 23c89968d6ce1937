import {
  type Diagnostic,
  isSearchable,
  type MatchMode,
  matchLexical,
  parseLexicalQuery,
} from "@skillshelf/core";
import { type PageFacts, pageNote } from "./_notes.js";
import { emptyText, renderPage } from "./_render.js";
import {
  haystackOf,
  type PreparedRow,
  prepareRows,
  rowKey,
  type ShownRow,
  showRow,
} from "./_rows.js";
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
        input.relevance !== undefined && page.some((row) => scored.has(row))
          ? input.relevance.source
          : undefined,
    };
  };
  const render = (page: readonly ShownRow[], pageFacts: PageFacts) =>
    renderPage(format, page, {
      wording,
      note: mentionsAnything(pageFacts) ? pageNote(pageFacts, wording) : "",
    });
  const finish = (text: string, page: readonly ShownRow[], pageFacts: PageFacts) =>
    view(text, page, pageFacts, diagnostics);
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

  // the whole window, when it fits (always, without a budget)
  if (mostRows === window.length) {
    const fullFacts = facts(window.length, false, undefined);
    const text = render(shown, fullFacts);
    if (bytes(text) <= budget) return finish(text, shown, fullFacts);
  }

  // the largest page of at least one row that fits, by bisection over row counts
  let best: { text: string; facts: PageFacts } | undefined;
  let low = 1;
  let high = Math.min(window.length - 1, mostRows);
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const pageFacts = facts(middle, true, undefined);
    const text = render(shown.slice(0, middle), pageFacts);
    if (bytes(text) <= budget) {
      best = { text, facts: pageFacts };
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  if (best !== undefined) return finish(best.text, shown.slice(0, best.facts.shown), best.facts);

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
  return `Available skills: ${count}${filtered ? " matching" : ""}. This call's budget cannot carry the listing; narrow it with ${listing(wording, 'query="<terms>"')} or raise the budget in a fresh turn.`;
}

function view(
  text: string,
  page: readonly ShownRow[],
  facts: PageFacts,
  diagnostics: Diagnostic[],
): CatalogView {
  return {
    text,
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
