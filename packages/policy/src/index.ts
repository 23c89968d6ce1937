export type { Advisory, AdvisoryFeed, KeptFeed } from "./advisories.js";
export { advisoriesDir, advisoryFor, parseAdvisoryFeed, readAdvisories } from "./advisories.js";
export type { PackageFacts, PolicyViolation, SourceFacts } from "./check.js";
export {
  mirrorRules,
  policyThreshold,
  policyViolations,
  severityViolation,
  signatureViolations,
  sourceMatches,
  sourceViolations,
} from "./check.js";
export type { EffectivePolicy, FromFile, PolicyFile, PolicyLevel, PolicyRules } from "./read.js";
export { policyPaths, readPolicy, SYSTEM_POLICY_PATH } from "./read.js";
