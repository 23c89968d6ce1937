/** Words too common to narrow a search; a query made only of them matches nothing. */
const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "the a an and or for with this that when what how into from use used using one not skill skills " +
    "skillshelf please can you should would about need want help make file files code"
  ).split(" "),
);

/** A query prepared for matching: the normalised phrase and the terms that count. */
export interface LexicalQuery {
  /** The whole query, normalised; matched as a word sequence. Empty when nothing is searchable. */
  readonly phrase: string;
  /** Tokens of two or more characters that are not stopwords. */
  readonly terms: readonly string[];
}

/** How a query matched: every term (`all`) or, failing that, at least one (`any`). */
export type MatchMode = "all" | "any";

/**
 * Lower-case the text, turn every run of characters that are not letters or digits into one
 * space, and trim. `Git-Worktree_Create!` becomes `git worktree create`.
 *
 * Not in the package's surface: core's own tests import it from this file.
 */
export function normalizeSearchText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Prepare a query once for matching against many haystacks. */
export function parseLexicalQuery(query: string): LexicalQuery {
  const phrase = normalizeSearchText(query);
  const terms =
    phrase === ""
      ? []
      : phrase.split(" ").filter((term) => term.length >= 2 && !STOPWORDS.has(term));
  return { phrase, terms };
}

/** True when the query carries something to search for; an empty query matches everything. */
export function isSearchable(query: LexicalQuery): boolean {
  return query.phrase !== "";
}

/**
 * The one lexical matcher. The whole query as a word sequence always matches (so `tdd` finds
 * `tdd`); otherwise each term must equal a haystack word, or be a prefix of one when the term has
 * three or more characters (`wor` finds `worktree`, `wo` does not, `git` never finds `digital`).
 * `all` needs every term, `any` one. An empty query matches; a stopword-only query does not.
 */
export function matchLexical(
  query: LexicalQuery,
  haystack: string,
  mode: MatchMode = "all",
): boolean {
  if (query.phrase === "") return true;
  const normalized = normalizeSearchText(haystack);
  if (` ${normalized} `.includes(` ${query.phrase} `)) return true;
  if (query.terms.length === 0) return false;
  const words = normalized.split(" ");
  const hit = (term: string) => hitsWord(term, words);
  return mode === "all" ? query.terms.every(hit) : query.terms.some(hit);
}

/**
 * Keep the items matching every term; when none does, keep those matching any term. `matchMode`
 * says which happened, or is `null` when the query had nothing searchable and all items are kept.
 */
export function filterLexical<T>(
  items: readonly T[],
  query: string,
  haystackOf: (item: T) => string,
): { items: T[]; matchMode: MatchMode | null } {
  const parsed = parseLexicalQuery(query);
  if (!isSearchable(parsed)) return { items: [...items], matchMode: null };
  const all = items.filter((item) => matchLexical(parsed, haystackOf(item), "all"));
  if (all.length > 0) return { items: all, matchMode: "all" };
  return {
    items: items.filter((item) => matchLexical(parsed, haystackOf(item), "any")),
    matchMode: "any",
  };
}

/**
 * `filterLexical`, then best match first. `fieldsOf` gives an item's text in order of weight
 * (a name, then a description, then the rest): a first field that is the whole query ranks
 * highest, then one holding the whole query; then each term counts for the weightiest field it
 * hits. Ties keep the items' order.
 */
export function rankLexical<T>(
  items: readonly T[],
  query: string,
  fieldsOf: (item: T) => readonly string[],
): { items: T[]; matchMode: MatchMode | null } {
  const found = filterLexical(items, query, (item) => fieldsOf(item).join(" "));
  if (found.matchMode === null) return found;
  const parsed = parseLexicalQuery(query);
  const ranked = found.items
    .map((item, order) => ({ item, order, score: lexicalScore(parsed, fieldsOf(item)) }))
    .sort((a, b) => b.score - a.score || a.order - b.order);
  return { items: ranked.map((entry) => entry.item), matchMode: found.matchMode };
}

// --- internal ---

// a term of three or more characters also matches the start of a word
function hitsWord(term: string, words: readonly string[]): boolean {
  return words.some((word) => word === term || (term.length >= 3 && word.startsWith(term)));
}

function lexicalScore(query: LexicalQuery, fields: readonly string[]): number {
  const normalized = fields.map(normalizeSearchText);
  const words = normalized.map((field) => field.split(" "));
  const first = normalized[0] ?? "";
  let score = first === query.phrase ? 2000 : ` ${first} `.includes(` ${query.phrase} `) ? 1000 : 0;
  for (const term of query.terms) {
    const field = words.findIndex((fieldWords) => hitsWord(term, fieldWords));
    // the first field weighs 100, the second 10, every later one 1
    if (field >= 0) score += field === 0 ? 100 : field === 1 ? 10 : 1;
  }
  return score;
}
