export type { SkillInvocationContext, SkillInvocationResult } from "@skillshelf/catalog-view";
export type { FilesystemProviderOptions } from "./filesystem.js";
export { createFilesystemProvider, FILESYSTEM_RANKS } from "./filesystem.js";
export { createSkillRegistry, RUNTIME_PROVIDER, RUNTIME_RANK } from "./registry.js";
export type {
  InvokeOptions,
  ProviderCallOptions,
  ProviderControl,
  ProviderObservation,
  ReadOptions,
  RegistryChange,
  RegistryConfig,
  RegistryScope,
  RegistrySnapshot,
  RuntimeSkill,
  ShadowedSkill,
  SkillCandidate,
  SkillDefinition,
  SkillInvocation,
  SkillProvider,
  SkillRegistry,
  SkillSummary,
} from "./types.js";
