export type { ResourceBase, SkillContentInput } from "./content.js";
export { parseSkillContent, renderSkillContent } from "./content.js";
export type {
  InvocationProvenance,
  InvocationRefusalCode,
  SkillInvocationContext,
  SkillInvocationResult,
} from "./invocation.js";
export { skillInvocationContext } from "./invocation.js";
export type {
  CatalogBlock,
  CatalogFormat,
  CatalogInput,
  CatalogOffer,
  CatalogPackage,
  CatalogRow,
  CatalogSkill,
  CatalogView,
  CatalogWording,
} from "./types.js";
export { buildCatalogView, MAX_LIMIT, SHORTEN_FLOOR } from "./view.js";
export { DEFAULT_WORDING } from "./wording.js";
