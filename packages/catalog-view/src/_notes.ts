import type { MatchMode } from "@skillshelf/core/listing";
import { oneLine } from "./_sanitize.js";
import { listing, openDirectly, type Wording } from "./wording.js";

/** What the page note describes. */
export interface PageFacts {
  readonly query: string | undefined;
  /** The query had no searchable words and was ignored. */
  readonly queryIgnored: boolean;
  readonly matchMode: MatchMode | null;
  readonly total: number;
  readonly catalogTotal: number;
  readonly shown: number;
  readonly offset: number;
  readonly nextOffset: number | undefined;
  readonly budgetLimited: boolean;
  /** A row too large for the budget on its own, stepped over. */
  readonly steppedOver: string | undefined;
  readonly rankedBy: string | undefined;
}

/**
 * The note under a page, said only when the page hides something or changed the order: what the
 * query kept, how much is shown, what was stepped over, how to continue, who ranked the rows.
 */
export function pageNote(facts: PageFacts, wording: Wording): string {
  const clauses: string[] = [];
  const filtered = facts.matchMode !== null;
  if (facts.queryIgnored)
    clauses.push("The query carried no searchable terms, so the full list is shown.");
  if (filtered && facts.total === 0) {
    const drop = wording.features.listTool ? ", so drop query to list them" : "";
    clauses.push(
      `No skill matches "${echo(facts.query)}"; ${facts.catalogTotal} are available unfiltered${drop}.`,
    );
  } else if (filtered) {
    const any =
      facts.matchMode === "any" ? ", matched on any query word after no row matched them all" : "";
    clauses.push(
      `Filtered by "${echo(facts.query)}"${any}: ${facts.total} of ${facts.catalogTotal} rows match.`,
    );
  }
  const hidden = facts.offset > 0 || facts.nextOffset !== undefined;
  if (hidden && facts.total > 0) {
    const cut = facts.budgetLimited ? "; the rest did not fit this call's budget" : "";
    clauses.push(
      `Showing ${facts.shown} of ${facts.total} ${filtered ? "matching " : ""}rows${cut}.`,
    );
  }
  if (facts.steppedOver !== undefined) {
    clauses.push(
      `"${facts.steppedOver}" is too large to carry in this call's budget and was stepped over${openDirectly(wording, facts.steppedOver)}.`,
    );
  }
  if (facts.nextOffset !== undefined && wording.features.listTool) {
    clauses.push(
      filtered
        ? `Continue with the same query at offset=${facts.nextOffset}; the offset indexes the filtered rows, so dropping query changes which rows it selects.`
        : `Continue with ${listing(wording, `offset=${facts.nextOffset}`)} for the remainder.`,
    );
  }
  if (facts.rankedBy !== undefined) {
    clauses.push(
      `Ordered by relevance to this task, judged by ${facts.rankedBy}; every skill is still listed and paging carries the rest.`,
    );
  }
  return clauses.join(" ");
}

// --- internal ---

/** The query as echoed in a note: whitespace collapsed, at most 48 characters, quotes made safe. */
function echo(query: string | undefined): string {
  return oneLine((query ?? "").replaceAll('"', "'"), 48);
}
