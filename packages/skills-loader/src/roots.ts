import { basename, dirname, resolve } from "node:path";
import {
  defaultResourceRoots,
  type Environment,
  explicitRoot,
  type ResourceRoot,
} from "@skillshelf/core";

/**
 * The default skill roots, lowest precedence first: every agent's user skill
 * folder (discovery-only), the user library's `skills/`, every agent's project skill folder
 * (discovery-only), the project library's `skills/`. The caller adds package roots.
 */
export function defaultSkillRoots(environment: Environment): ResourceRoot[] {
  return defaultResourceRoots(environment, "skills", ["userSkillRoot", "projectSkillRoot"]);
}

/** Roots for paths the user named explicitly (files or folders, relative to `cwd`). */
export function explicitSkillRoots(paths: readonly string[], cwd: string): ResourceRoot[] {
  return paths.map((path) => explicitRoot(resolve(cwd, path)));
}

/** The name a skill takes from its location: the folder of a `SKILL.md`, else the file name. */
export function skillPathSubject(path: string): string {
  const file = basename(path);
  if (file.toLowerCase() === "skill.md") return basename(dirname(path));
  return file.replace(/\.md$/i, "");
}
