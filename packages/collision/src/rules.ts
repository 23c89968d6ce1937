import { agentRank, compareText, isOwnedSource, SCOPES, type Scope } from "@skillshelf/core";
import type { CollisionCandidate, CollisionRule, SkillCandidate } from "./types.js";

/** Higher precedence wins; without precedence, the later scope (package < user < project < cli) wins. */
export const precedenceRule: CollisionRule<CollisionCandidate> = {
  key: "precedence",
  compare: (a, b) => rank(a) - rank(b),
};

/** The last resort, so results never depend on discovery order: the path that sorts first wins. */
export const pathRule: CollisionRule<CollisionCandidate> = {
  key: "path",
  compare: (a, b) => compareText(b.path, a.path),
};

/** The generic order for prompts and other kinds: precedence, then path. */
export const defaultRules: readonly CollisionRule<CollisionCandidate>[] = [
  precedenceRule,
  pathRule,
];

/**
 * The skill order: trusted beats untrusted, so an untrusted copy can never hide a
 * trusted one; then owned (our library, packages, explicit paths) beats loose discovery; then
 * precedence; then the agent table's rank; then path.
 */
export const skillRules: readonly CollisionRule<SkillCandidate>[] = [
  { key: "trusted", compare: (a, b) => Number(a.trusted) - Number(b.trusted) },
  { key: "owned", compare: (a, b) => Number(isOwned(a)) - Number(isOwned(b)) },
  precedenceRule,
  { key: "agent-rank", compare: (a, b) => agentRank(b.source) - agentRank(a.source) },
  pathRule,
];

// --- internal ---

function rank(candidate: CollisionCandidate): number {
  return candidate.precedence ?? SCOPES.indexOf(candidate.scope as Scope);
}

function isOwned(candidate: SkillCandidate): boolean {
  return isOwnedSource(candidate.source);
}
