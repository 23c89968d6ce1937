import { createDiagnostic, type HintedDiagnostic } from "@skillshelf/core";
import { type Advisory, advisoryFor, type KeptFeed } from "@skillshelf/policy";
import type { PackageCopy, PackageSnapshot } from "@skillshelf/store";

/** An installed copy an advisory followed here revokes, with the advisory and its feed. */
export interface RevokedCopy {
  readonly copy: PackageCopy;
  readonly advisory: Advisory;
  readonly feed: string;
}

/** Every installed copy of `snapshot` an advisory of `feeds` names, by its tree digest or its source. */
export function revokedCopies(
  snapshot: PackageSnapshot,
  feeds: readonly KeptFeed[],
): RevokedCopy[] {
  const revoked: RevokedCopy[] = [];
  for (const copy of feeds.length === 0 ? [] : snapshot.copies) {
    const record = copy.record;
    if (record === undefined) continue;
    const hit = advisoryFor(feeds, { digest: record.contentDigest, source: record.origin.source });
    if (hit !== undefined) revoked.push({ copy, ...hit });
  }
  return revoked;
}

/**
 * `advisory_revoked` for `what`: the advisory's id, severity, feed and summary, then what follows
 * (`consequence`), as an error (a change refused, a check failed) or a warning (withheld).
 */
export function revokedDiagnostic(
  hit: { readonly advisory: Advisory; readonly feed: string },
  what: string,
  severity: "error" | "warning",
  consequence = "",
): HintedDiagnostic {
  const { advisory, feed } = hit;
  return createDiagnostic(
    severity,
    "advisory_revoked",
    `${what} is revoked by ${advisory.id} (${advisory.severity}, feed ${feed}): ${advisory.summary}${consequence}`,
    { details: { advisory: advisory.id, feed, severity: advisory.severity } },
  );
}
