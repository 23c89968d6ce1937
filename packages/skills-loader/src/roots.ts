import { basename, dirname, join, resolve } from "node:path";
import {
  AGENTS,
  agentRoot,
  type Environment,
  libraryRoot,
  type ResourceRoot,
  ROOT_PRECEDENCE,
  withoutRepeatedRoots,
} from "@skillshelf/core";

/**
 * The default skill roots, lowest precedence first (DESIGN §2, §4): every agent's user folder
 * (discovery-only), the user library, every agent's project folder (discovery-only), the project
 * library. Package roots are not included: the caller adds them with `packageRoot`.
 */
export function defaultSkillRoots(environment: Environment): ResourceRoot[] {
  const { home, cwd, configDir } = environment;
  const roots: ResourceRoot[] = [];
  for (const agent of AGENTS) {
    if (agent.userSkillRoot !== undefined)
      roots.push(agentRoot(agent.id, "user", join(home, agent.userSkillRoot), home));
  }
  roots.push(libraryRoot("user", join(configDir, "skills"), home));
  for (const agent of AGENTS) {
    if (agent.projectSkillRoot !== undefined)
      roots.push(agentRoot(agent.id, "project", join(cwd, agent.projectSkillRoot), cwd));
  }
  roots.push(libraryRoot("project", join(cwd, ".skillshelf", "skills"), cwd));
  return withoutRepeatedRoots(roots);
}

/** Roots for paths the user named explicitly (files or folders, relative to `cwd`). */
export function explicitSkillRoots(paths: readonly string[], cwd: string): ResourceRoot[] {
  return paths.map((path) => ({
    path: resolve(cwd, path),
    scope: "cli",
    source: "path",
    origin: "explicit",
    precedence: ROOT_PRECEDENCE.explicit,
    trust: "trusted",
  }));
}

/** The name a skill takes from its location: the folder of a `SKILL.md`, else the file name. */
export function skillPathSubject(path: string): string {
  const file = basename(path);
  if (file.toLowerCase() === "skill.md") return basename(dirname(path));
  return file.replace(/\.md$/i, "");
}
