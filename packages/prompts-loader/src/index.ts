export type { ResourceRoot, ResourceTrust } from "@skillshelf/core";
export { packageRoot } from "@skillshelf/core";
export { MAX_PROMPT_BYTES } from "./_read.js";
export type { PromptCommand } from "./command.js";
export { parsePromptCommand, splitArguments } from "./command.js";
export { extractDisplayText } from "./display.js";
export type { ExpandOptions, PromptExpansion, PromptRefusal } from "./expand.js";
export { expandPromptTemplate, invokePromptTemplate } from "./expand.js";
export { firstLineDescription } from "./fields.js";
export { loadPromptTemplates } from "./load.js";
export { defaultPromptRoots } from "./roots.js";
export type { PromptArguments, TemplateParameters } from "./substitute.js";
export { substituteArguments, templateParameters } from "./substitute.js";
export type {
  LoadPromptsCode,
  LoadPromptTemplatesInput,
  LoadPromptTemplatesResult,
  PromptTemplate,
} from "./types.js";
