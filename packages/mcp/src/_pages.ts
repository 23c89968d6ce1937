import { invalidParams } from "./_errors.js";
import type { Listing } from "./_listing.js";
import type { AnyServed } from "./_read.js";

/** Longest cursor accepted: the ones handed out are far shorter. */
const MAX_CURSOR_LENGTH = 1024;

/**
 * One page of served skills. Without a cursor the library is read afresh; with one, the page is
 * cut from the listing the cursor came from (still kept), or else from a fresh one after the last
 * URI the client saw, so a change between pages never repeats or skips what did not change.
 */
export function pageOf(
  cursor: string | undefined,
  listingOf: (generation: number | undefined) => Listing,
  pageSize: number,
): { readonly items: readonly AnyServed[]; readonly next: { nextCursor?: string } } {
  const position = cursor === undefined ? undefined : decodeCursor(cursor);
  const listing = listingOf(position?.generation);
  const after = position?.after;
  const start = after === undefined ? 0 : countBefore(listing.all, (one) => one.entry.uri <= after);
  const items = listing.all.slice(start, start + pageSize);
  const last = items.at(-1);
  if (last === undefined || start + items.length >= listing.all.length) return { items, next: {} };
  return {
    items,
    next: { nextCursor: encodeCursor({ generation: listing.generation, after: last.entry.uri }) },
  };
}

// --- internal ---

interface Position {
  readonly generation: number;
  readonly after: string;
}

function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.generation, position.after])).toString("base64url");
}

function decodeCursor(cursor: string): Position {
  const refused = () =>
    invalidParams("mcp_cursor_invalid", "the cursor is not one this server handed out", {
      length: cursor.length,
    });
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]*$/.test(cursor)) throw refused();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw refused();
  }
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    !Number.isSafeInteger(value[0]) ||
    typeof value[1] !== "string"
  )
    throw refused();
  return { generation: value[0], after: value[1] };
}

/** How many leading items of the sorted `items` satisfy `before` (binary search). */
function countBefore<T>(items: readonly T[], before: (item: T) => boolean): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(items[middle] as T)) low = middle + 1;
    else high = middle;
  }
  return low;
}
