import { assertFactsCurrent, observeCopyFacts } from "./facts.js";
import { withScopeLock } from "./lock.js";
import type { ReviewedCopy } from "./review.js";
import type { ScopeTarget } from "./types.js";

/**
 * Run `write` (a writer of the other scope) holding `peer.scope`'s lock, once the peer copy is
 * still as reviewed (`stale_plan` otherwise): a change reviewed against both scopes' copies of an
 * id commits under both locks, the peer's taken first.
 */
export function withPeerReviewed<T>(
  target: Omit<ScopeTarget, "scope">,
  peer: ReviewedCopy,
  write: () => T,
): T {
  return withScopeLock({ ...target, scope: peer.scope }, () => {
    const observed = observeCopyFacts({ ...target, scope: peer.scope, id: peer.id });
    assertFactsCurrent({ scope: peer.scope, id: peer.id, reviewed: peer.facts, observed });
    return write();
  });
}
