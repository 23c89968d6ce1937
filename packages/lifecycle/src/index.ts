export type { CopyOperation } from "./_operations.js";
export { isCopyOperation } from "./_operations.js";
export { optionalSkills } from "./_profiles-file.js";
export { changeStageOptions } from "./_session-plan.js";
export type { SourceFetches, StagingSet } from "./_staging.js";
export { createSourceFetches } from "./_staging.js";
export type { AdoptRequest, Unadopted, UnadoptedSkills } from "./adopt.js";
export { adoptRequests, findUnadopted } from "./adopt.js";
export type { RevokedCopy } from "./advisories.js";
export { addAdvisoryFeed, advisoryRefusal, checkAdvisories } from "./advisories.js";
export type { SwitchWrite } from "./agent-switches.js";
export { rollbackSwitch, switchesOff, switchPackages } from "./agent-switches.js";
export { applyLifecycle } from "./apply.js";
export type { InstalledAudit } from "./audit-installed.js";
export { auditInstalled } from "./audit-installed.js";
export { createBundle } from "./bundle.js";
export type { CapabilityDiff, PackageTree, ResourceName } from "./capabilities.js";
export { capabilityDiff } from "./capabilities.js";
export type { UpdateCheck, UpdateCheckRequest } from "./check.js";
export { checkUpdates } from "./check.js";
export type { McpSource } from "./gateway.js";
export { mcpSourceOf, openUpstream, trustUpstream } from "./gateway.js";
export { installedFrom } from "./installed-from.js";
export type { LinkApplyResult, LinkPlan, LinkPlanRequest, LinkStep } from "./link.js";
export { applyLinks, planLinks, planUnlinks } from "./link.js";
export type { NpmSkill } from "./npm-sync.js";
export { npmPruned, npmSkills, readSynced, recordSynced } from "./npm-sync.js";
export type { JoinedOrg } from "./org.js";
export {
  joinOrg,
  leaveOrg,
  orgRefusal,
  recordScopeOrg,
  refreshExpiredOrg,
  syncOrg,
  teamDrift,
  teamSkills,
  teamSources,
} from "./org.js";
export { planLifecycle, releasePlan } from "./plan.js";
export type { Profile, ProfileAgent } from "./profiles.js";
export {
  createProfile,
  markOptional,
  optionalLeftOut,
  profileFit,
  profileInUse,
  readProfiles,
  settleOptional,
  useProfile,
} from "./profiles.js";
export type { RegisteredRow, RegisterRequest, RegisterResult } from "./register.js";
export { registerPackages } from "./register.js";
export { restoreFromLock } from "./restore.js";
export { linksBehindLock, restoreLinks } from "./restore-links.js";
export type {
  AuditApproval,
  ChangeCommand,
  ChangeConfirmation,
  ChangeQuestions,
  ChangeRequest,
  ChangeSession,
  SkillChoice,
} from "./session.js";
export { changeScope, changeSession, linkDiagnostics, notConfirmed } from "./session.js";
export type { TrustRequest } from "./trust.js";
export { trustTarget, untrustTarget } from "./trust.js";
export type {
  ApplyOptions,
  ApplyResult,
  AuditRequest,
  LifecyclePlan,
  LifecycleProgress,
  LifecycleRequest,
  Operation,
  OutcomeErrorCode,
  PlanStep,
  RefreshResult,
  Refusal,
  ReviewedFact,
  StepAudit,
  StepLink,
  StepOutcome,
  StepSource,
  StepVerification,
  TrustedItem,
  TrustResult,
} from "./types.js";
export { verifyStep, verifySteps } from "./verify.js";
