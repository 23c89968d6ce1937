import { basename, dirname, join, resolve } from "node:path";
import { AGENTS, type Environment, type Scope } from "@skillshelf/core";
import type { SkillRoot, SkillTrust } from "./types.js";

/** Precedence of each kind of root; higher wins among equally trusted, equally owned skills. */
export const SKILL_PRECEDENCE: {
  readonly package: 10;
  readonly agentUser: 20;
  readonly user: 30;
  readonly agentProject: 40;
  readonly project: 50;
  readonly explicit: 60;
} = { package: 10, agentUser: 20, user: 30, agentProject: 40, project: 50, explicit: 60 };

/**
 * The default skill roots, lowest precedence first (DESIGN §2, §4): every agent's user folder
 * (discovery-only), the user library, every agent's project folder (discovery-only), the project
 * library. Package roots are not included: the caller adds them with `packageSkillRoot`.
 */
export function defaultSkillRoots(environment: Environment): SkillRoot[] {
  const { home, cwd, configDir } = environment;
  const roots: SkillRoot[] = [];
  for (const agent of AGENTS) {
    if (agent.userSkillRoot === undefined) continue;
    roots.push(agentRoot(agent.id, "user", join(home, agent.userSkillRoot), home));
  }
  roots.push(ownRoot("user", join(configDir, "skills"), home));
  for (const agent of AGENTS) {
    if (agent.projectSkillRoot === undefined) continue;
    roots.push(agentRoot(agent.id, "project", join(cwd, agent.projectSkillRoot), cwd));
  }
  roots.push(ownRoot("project", join(cwd, ".skillshelf", "skills"), cwd));
  return withoutRepeatedPaths(roots);
}

/** The skills folder of an installed package copy, as a root the caller passes to `loadSkills`. */
export function packageSkillRoot(options: {
  readonly id: string;
  readonly scope: "user" | "project";
  /** The skills folder inside the copy. */
  readonly path: string;
  /** The copy's folder: nothing may resolve outside it. */
  readonly packageDir: string;
  readonly trust: Exclude<SkillTrust, "untrusted">;
}): SkillRoot {
  return {
    path: options.path,
    scope: "package",
    source: "package",
    origin: `package:${options.scope}:${options.id}`,
    precedence: SKILL_PRECEDENCE.package,
    trust: options.trust,
    containment: options.packageDir,
  };
}

/** Roots for paths the user named explicitly (files or folders, relative to `cwd`). */
export function explicitSkillRoots(paths: readonly string[], cwd: string): SkillRoot[] {
  return paths.map((path) => ({
    path: resolve(cwd, path),
    scope: "cli",
    source: "path",
    origin: "explicit",
    precedence: SKILL_PRECEDENCE.explicit,
    trust: "trusted",
  }));
}

/** The name a skill takes from its location: the folder of a `SKILL.md`, else the file name. */
export function skillPathSubject(path: string): string {
  const file = basename(path);
  if (file.toLowerCase() === "skill.md") return basename(dirname(path));
  return file.replace(/\.md$/i, "");
}

// --- internal ---

function agentRoot(
  agentId: string,
  scope: "user" | "project",
  path: string,
  anchor: string,
): SkillRoot {
  return {
    path,
    scope,
    source: agentId,
    origin: `${agentId}-${scope}`,
    precedence: scope === "user" ? SKILL_PRECEDENCE.agentUser : SKILL_PRECEDENCE.agentProject,
    trust: "untrusted",
    containment: anchor,
  };
}

function ownRoot(scope: Scope, path: string, anchor: string): SkillRoot {
  return {
    path,
    scope,
    source: "skillshelf",
    origin: scope,
    precedence: scope === "user" ? SKILL_PRECEDENCE.user : SKILL_PRECEDENCE.project,
    trust: "trusted",
    containment: anchor,
  };
}

/** When cwd is home, user and project agent folders coincide: keep the later (higher) root only. */
function withoutRepeatedPaths(roots: readonly SkillRoot[]): SkillRoot[] {
  const lastIndex = new Map(roots.map((root, index) => [root.path, index]));
  return roots.filter((root, index) => lastIndex.get(root.path) === index);
}
