export type { HostFolders, ResourceRoot, ResourceTrust } from "@skillshelf/core";
// the root vocabulary lives in core; re-exported so a harness needs only this package
export { hostRoots, packageRoot, ROOT_PRECEDENCE } from "@skillshelf/core";
export { LARGE_SKILL_BYTES, MAX_SKILL_BYTES } from "./_read-skill.js";
export type { SkillContent } from "./body.js";
export { readSkillBody, readSkillContent, skillFileHash } from "./body.js";
export type { SavedSkillCache, SavedSkillRecord, SkillCache, SkillCacheStats } from "./cache.js";
export { createSkillCache } from "./cache.js";
export type { SkillCommand } from "./commands.js";
export { parseSkillCommand, parseSuggestedSkills } from "./commands.js";
export type { AgentExplanation, BudgetEffect, ExplainedRoot, ExplainedSkill } from "./explain.js";
export { applyBudget, explainAgents } from "./explain.js";
export {
  isAddressableName,
  MAX_DESCRIPTION_LENGTH,
  MAX_NAME_LENGTH,
  nameProblems,
  SKILL_NAME_PATTERN,
  SPEC_KEYS,
} from "./fields.js";
export { normalizedSkillHash, skillIdentity } from "./hash.js";
export { loadSkills } from "./load.js";
export { extractProvenance } from "./provenance.js";
export { defaultSkillRoots, explicitSkillRoots, skillPathSubject } from "./roots.js";
export type { SkillFolderFile } from "./skill-file.js";
export { readSkillFolderFile } from "./skill-file.js";
export { parseToolList, resolveToolList } from "./tools.js";
export type {
  LoadSkillsCode,
  LoadSkillsInput,
  LoadSkillsResult,
  Skill,
  SkillProvenance,
} from "./types.js";
export type { VisibilityFacts } from "./visibility.js";
export { isModelVisible, modelVisibleSkills } from "./visibility.js";
