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
export type { KeptOrg, OrgFile, OrgPin, ScopeOrg, TeamSets } from "./org.js";
export {
  DEFAULT_CHANNEL,
  DEFAULT_ORG_TTL,
  keptOrgPath,
  ORG_FILE,
  orgAge,
  parseOrgFile,
  readKeptOrg,
  readScopeOrg,
  samePin,
  scopeOrgPath,
  teamSet,
} from "./org.js";
export type { EffectivePolicy, FromFile, PolicyFile, PolicyLevel } from "./read.js";
export { policyPaths, readPolicy, SYSTEM_POLICY_PATH } from "./read.js";
export type { OrgPolicyRules, PolicyRules } from "./rules.js";
