/**
 * The candidate closest to what was typed, for a "did you mean": a candidate it starts, or one
 * within a few edits (a third of its length, at least one), ties to the first; `undefined` when
 * none is close.
 */
export function closest(typed: string, candidates: readonly string[]): string | undefined {
  if (typed === "") return undefined;
  const prefixed = candidates.find((candidate) => candidate.startsWith(typed));
  if (prefixed !== undefined) return prefixed;
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate);
    if (
      distance <= Math.max(1, Math.floor(candidate.length / 3)) &&
      (best === undefined || distance < best.distance)
    )
      best = { candidate, distance };
  }
  return best?.candidate;
}

// --- internal ---

/** Levenshtein distance with adjacent transpositions counted as one edit. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((rows[i - 2] as number[])[j - 2] as number) + 1);
    }
  return (rows[a.length] as number[])[b.length] as number;
}
