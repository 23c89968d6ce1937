import { join } from "node:path";
import {
  AGENTS,
  agentRoot,
  type Environment,
  libraryRoot,
  type ResourceRoot,
  withoutRepeatedRoots,
} from "@skillshelf/core";

/**
 * The default prompt roots, lowest precedence first: every agent's user prompt folder
 * (discovery-only), the user library's `prompts/`, every agent's project prompt folder
 * (discovery-only), the project library's `prompts/`. Package roots are added by the caller.
 */
export function defaultPromptRoots(environment: Environment): ResourceRoot[] {
  const { home, cwd, configDir } = environment;
  const roots: ResourceRoot[] = [];
  for (const agent of AGENTS) {
    if (agent.userPromptRoot !== undefined)
      roots.push(agentRoot(agent.id, "user", join(home, agent.userPromptRoot), home));
  }
  roots.push(libraryRoot("user", join(configDir, "prompts"), home));
  for (const agent of AGENTS) {
    if (agent.projectPromptRoot !== undefined)
      roots.push(agentRoot(agent.id, "project", join(cwd, agent.projectPromptRoot), cwd));
  }
  roots.push(libraryRoot("project", join(cwd, ".skillshelf", "prompts"), cwd));
  return withoutRepeatedRoots(roots);
}
