export { dedupeByRealPath } from "./dedupe.js";
export type { ResolveOptions } from "./resolve.js";
export { compareBy, resolveCollisions, resolveResourceCollisions } from "./resolve.js";
export { defaultRules, pathRule, precedenceRule, skillRules } from "./rules.js";
export type {
  CollisionCandidate,
  CollisionGroup,
  CollisionLoss,
  CollisionResult,
  CollisionRule,
  SkillCandidate,
} from "./types.js";
