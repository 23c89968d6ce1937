import type { PackageScope } from "@skillshelf/core";
import type { LockedPackage, PackageSnapshot, StoreReview } from "@skillshelf/store";
import { refusal, refusalOf } from "./_refusal.js";
import type { Refusal, ReviewedFact } from "./types.js";

/**
 * The facts a step is reviewed against (`StoreReview.copies`), or the refusal of a state that
 * cannot be read: nothing may be planned against it.
 */
export function reviewFacts(
  review: StoreReview,
  scope: PackageScope,
  id: string,
  snapshot?: PackageSnapshot,
): { facts: ReviewedFact[] } | { refusal: Refusal } {
  try {
    return { facts: review.copies(scope, id, snapshot) };
  } catch (error) {
    return { refusal: refusalOf(error) };
  }
}

/** A scope's lock entry for `id` as the plan read the file (`null` when it pins nothing for it). */
export function lockedEntry(
  review: StoreReview,
  scope: PackageScope,
  id: string,
): { entry: LockedPackage | null } | { refusal: Refusal } {
  const read = review.lockEntry(scope, id);
  if ("entry" in read) return read;
  const [first] = read.diagnostics;
  return {
    refusal: refusal("lock_invalid", first?.message ?? "lock.json cannot be read", {
      diagnostics: read.diagnostics,
    }),
  };
}
