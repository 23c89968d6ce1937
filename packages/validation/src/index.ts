export type { CatalogInvalidReason } from "./catalog-validity.js";
export { skillCatalogValidity } from "./catalog-validity.js";
export { validateCollection } from "./collection.js";
export { validateIndex } from "./index-validation.js";
export { validatePackage } from "./package.js";
export { validateResources, validateSkill } from "./resources.js";
export { MAX_COMPATIBILITY_LENGTH, strictSkillDiagnostics } from "./strict.js";
export type {
  IndexValidation,
  PackageValidation,
  ValidatedResource,
  ValidateOptions,
  ValidationMode,
  ValidationResult,
} from "./types.js";
