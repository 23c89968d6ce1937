// the reference expansion lives in store (inventory checks it too); hosts find it here

export type {
  InvocationProvenance,
  SkillInvocationContext,
  SkillInvocationResult,
} from "@skillshelf/catalog-view";
export type { PackageOwner, ResolvedReferences } from "@skillshelf/store";
export { resolvePackageReferences } from "@skillshelf/store";
export type { RevokedCopy } from "./_advisories.js";
export { revokedCopies, revokedDiagnostic } from "./_advisories.js";
export type { ConsentState, ConsentStatus } from "./_consents.js";
export { consentStatus } from "./_consents.js";
export type { PassRoots, PassSettings } from "./_pass.js";
export { beginPass } from "./_pass.js";
export { createResources } from "./create.js";
export type { KindItem, KindLoadInput, KindLoads, KindSpec } from "./kinds.js";
export { KINDS, skillPlaceholder } from "./kinds.js";
export type {
  Admission,
  Admitted,
  Availability,
  KindPass,
  OfferedRow,
  PendingSkillRequests,
  ReadOptions,
  ReadPass,
  Resources,
  ResourcesOptions,
  ResourcesStats,
  SkillOffer,
  SkillRequest,
  SkillRequestReason,
} from "./types.js";
