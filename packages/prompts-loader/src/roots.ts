import { defaultResourceRoots, type Environment, type ResourceRoot } from "@skillshelf/core";

/**
 * The default prompt roots, lowest precedence first: every agent's user prompt folder
 * (discovery-only), the user library's `prompts/`, every agent's project prompt folder
 * (discovery-only), the project library's `prompts/`. The caller adds package roots.
 */
export function defaultPromptRoots(environment: Environment): ResourceRoot[] {
  return defaultResourceRoots(environment, "prompts", ["userPromptRoot", "projectPromptRoot"]);
}
