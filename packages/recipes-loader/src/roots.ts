import { defaultResourceRoots, type Environment, type ResourceRoot } from "@skillshelf/core";

/**
 * The default agent-recipe roots, lowest precedence first: every agent's user sub-agent folder
 * (discovery-only; for example `~/.claude/agents`), the user library's `agents/`, every agent's
 * project sub-agent folder (discovery-only), the project library's `agents/`.
 */
export function defaultRecipeRoots(environment: Environment): ResourceRoot[] {
  return defaultResourceRoots(environment, "agents", ["userAgentRoot", "projectAgentRoot"]);
}

/** The default fleet roots: the user library's `fleets/`, then the project library's. */
export function defaultFleetRoots(environment: Environment): ResourceRoot[] {
  return defaultResourceRoots(environment, "fleets");
}
