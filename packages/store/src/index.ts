export { previousCopyDir } from "./_previous.js";
export { scopeFolderProblem } from "./_scope-folders.js";
export type { CachedParse, KnownTree, ScopeCache } from "./cache.js";
export { createScopeCache } from "./cache.js";
export type { Consent, ConsentFile } from "./consents.js";
export {
  consentFilePath,
  consentFolder,
  EMPTY_CONSENTS,
  folderConsentKey,
  packageConsentKey,
  readConsents,
  upstreamConsentKey,
  writeConsent,
} from "./consents.js";
export type { SetEnabledInput } from "./enable.js";
export {
  assertFactsCurrent,
  changedFact,
  observeCopyFacts,
  snapshotCopyFacts,
} from "./facts.js";
// the writers and the scope lock have their own entry: "@skillshelf/store/writers"
export type { LinkFault, LinkRecord } from "./links.js";
export {
  inspectLinks,
  linkedCopies,
  linkKey,
  reviewLink,
} from "./links.js";
export { lockedLinksBehind } from "./links-behind.js";
export type { LockedLink, LockedPackage, LockFile } from "./lockfile.js";
export {
  EMPTY_LOCK,
  lockEntryOf,
  lockedSource,
  lockFileOf,
  lockFilePath,
  lockFromState,
  lockLinkOf,
  lockRoot,
  readLockFile,
  serializeLockFile,
  withLockEntry,
} from "./lockfile.js";
export {
  hasManifestEntry,
  MAX_MANIFEST_BYTES,
  readPackageManifest,
  skillPackageManifest,
} from "./manifest.js";
export { recheckCopies } from "./recheck.js";
export type { PackageOwner, ResolvedReferences } from "./references.js";
export { resolvePackageReferences, withPackageReferences } from "./references.js";
export type { RemovePackageInput } from "./remove.js";
export type { ReviewedCopy, StoreReview } from "./review.js";
export { copyScope, createStoreReview, effectiveOf } from "./review.js";
export type { PackageRootSource } from "./roots.js";
export { packageCopyRoots, packageFolderRoots, snapshotRoots } from "./roots.js";
export { defaultScope, PACKAGE_SCOPES, packagesDir } from "./scopes.js";
export type { CopyChange } from "./snapshot.js";
export {
  composeSnapshot,
  copiesOf,
  copyOf,
  effectiveCopy,
  isRequirementMet,
  loadableOwner,
  newlyBrokenDependents,
  readPackageSnapshot,
  snapshotAfter,
} from "./snapshot.js";
export { EMPTY_STATE, readScopeState, serializeScopeState } from "./state.js";
export type {
  ComponentKind,
  CopyFacts,
  CopyState,
  InstallRecord,
  ManifestResult,
  PackageComponent,
  PackageCopy,
  PackageFormat,
  PackageManifest,
  PackageOrigin,
  PackageResourceFolder,
  PackageSnapshot,
  PreviousRecord,
  ReadScopeState,
  ScopeState,
  ScopeStateResult,
  ScopeTarget,
  WriteResult,
} from "./types.js";
export type { SkillUsage, UsageRow } from "./usage.js";
export {
  appendUsage,
  disableUsage,
  enableUsage,
  readUsage,
  usageEnabled,
  usageFilePath,
} from "./usage.js";
