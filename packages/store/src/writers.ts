// The writers and the scope lock, for callers that change a library (lifecycle, a command line's
// change commands). Also exported from the package root; this entry lets a bundle that only
// reads leave the lock and its dependencies out.

export type { WriteBatch } from "./_batch.js";
export type { CopyWrite, CopyWriteInput } from "./copy-writes.js";
export { writeCopyBatch } from "./copy-writes.js";
export { setEnabled, setEnabledMany } from "./enable.js";
export type { InstallPackageInput, RollbackPackageInput } from "./install.js";
export { installPackage, installPackages, rollbackPackage, rollbackPackages } from "./install.js";
export type { LinkOutcome, LinkRequest, LinkWriteResult } from "./links.js";
export { linkResources, unlinkResources } from "./links.js";
export type { ScopeLock, ScopeLockState } from "./lock.js";
export { inspectScopeLock, withScopeLock } from "./lock.js";
export { withPeerReviewed } from "./peer-lock.js";
export { pendingChange, recoverScope, scopeLeftovers } from "./recover.js";
export { removePackage, removePackages } from "./remove.js";
