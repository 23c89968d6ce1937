export { createResources } from "./create.js";
export type { PackageOwner, ResolvedReferences } from "./references.js";
export { resolvePackageReferences } from "./references.js";
export type {
  PendingSkillRequests,
  ReadPass,
  Resources,
  ResourcesOptions,
  ResourcesStats,
  SkillRequest,
  SkillRequestReason,
} from "./types.js";
