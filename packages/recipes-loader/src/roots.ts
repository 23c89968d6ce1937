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
 * The default agent-recipe roots, lowest precedence first: every agent's user sub-agent folder
 * (discovery-only; for example `~/.claude/agents`), the user library's `agents/`, every agent's
 * project sub-agent folder (discovery-only), the project library's `agents/`.
 */
export function defaultRecipeRoots(environment: Environment): ResourceRoot[] {
  const { home, cwd, configDir } = environment;
  const roots: ResourceRoot[] = [];
  for (const agent of AGENTS) {
    if (agent.userAgentRoot !== undefined)
      roots.push(agentRoot(agent.id, "user", join(home, agent.userAgentRoot), home));
  }
  roots.push(libraryRoot("user", join(configDir, "agents"), home));
  for (const agent of AGENTS) {
    if (agent.projectAgentRoot !== undefined)
      roots.push(agentRoot(agent.id, "project", join(cwd, agent.projectAgentRoot), cwd));
  }
  roots.push(libraryRoot("project", join(cwd, ".skillshelf", "agents"), cwd));
  return withoutRepeatedRoots(roots);
}

/** The default fleet roots: the user library's `fleets/`, then the project library's. */
export function defaultFleetRoots(environment: Environment): ResourceRoot[] {
  const { home, cwd, configDir } = environment;
  return [
    libraryRoot("user", join(configDir, "fleets"), home),
    libraryRoot("project", join(cwd, ".skillshelf", "fleets"), cwd),
  ];
}
