import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  AGENTS,
  type AgentDefinition,
  createDiagnostic,
  type Diagnostic,
  type Environment,
  errorDiagnostic,
  findAgent,
  isSkillshelfError,
  type PackageScope,
  SkillshelfError,
} from "@skillshelf/core";
import {
  type AgentExplanation,
  applyBudget,
  type BudgetEffect,
  explainAgents,
} from "@skillshelf/skills-loader";
import { readScopeState } from "@skillshelf/store";
import { readJsonFile, writeJsonFile } from "./_json-file.js";
import { type ParkedLinks, parkLinks } from "./_parked-links.js";
import { optionalSkills, profilesIn, writeProfiles } from "./_profiles-file.js";
import { type SwitchWrite, switchedOff, switchSkills } from "./agent-switches.js";

/** A named subset of skills, and the scope that keeps it. */
export interface Profile {
  readonly name: string;
  readonly skills: readonly string[];
  readonly scope: PackageScope;
}

/** What using a profile did for one agent. */
export interface ProfileAgent {
  readonly agent: string;
  /** The switch written, or none when the agent documents none (`agent_switch_missing`). */
  readonly write?: SwitchWrite | undefined;
  /** For an agent with no switch: Skillshelf's user-scope links taken away and made again. */
  readonly links?: Omit<ParkedLinks, "problems"> | undefined;
  /** The profile's skills this agent does not see here. */
  readonly missing: readonly string[];
  /** What the agent's listing budget does to the profile's skills, when it documents one. */
  readonly budget?: BudgetEffect | undefined;
}

/** Every profile of both scopes, the project's first; a file that does not read is a diagnostic. */
export function readProfiles(environment: Environment): {
  readonly profiles: readonly Profile[];
  readonly diagnostics: readonly Diagnostic[];
} {
  const profiles: Profile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const scope of ["project", "user"] as const) {
    const read = profilesIn(environment, scope);
    if ("problem" in read) diagnostics.push(read.problem);
    else
      for (const [name, skills] of Object.entries(read.profiles))
        profiles.push({ name, skills, scope });
  }
  return { profiles, diagnostics };
}

/** Keep profile `name` of `skills` in `scope` (replacing one of that name). */
export function createProfile(request: {
  readonly environment: Environment;
  readonly scope: PackageScope;
  readonly name: string;
  readonly skills: readonly string[];
}): Profile {
  const { environment, scope, name } = request;
  if (!/^[a-z0-9][a-z0-9._-]{0,62}$/.test(name))
    throw new SkillshelfError(
      "profile_invalid",
      `${name} cannot name a profile: use lowercase letters, digits, '.', '_' and '-'`,
      { details: { name } },
    );
  const skills = [...new Set(request.skills)].sort();
  if (skills.length === 0)
    throw new SkillshelfError("profile_invalid", `the profile ${name} names no skill`, {
      details: { name },
    });
  const read = profilesIn(environment, scope);
  if ("problem" in read)
    throw new SkillshelfError("profile_invalid", read.problem.message, {
      path: read.problem.path,
    });
  writeProfiles(environment, scope, { ...read, profiles: { ...read.profiles, [name]: skills } });
  return { name, skills, scope };
}

/**
 * Mark `skills` optional in the project (or, `optional: false`, not): installed with it, but
 * reaching a contributor's agents only when the profile they use names them — through each
 * agent's own switch and `skillshelf mcp`; never through a project link (the same for everyone:
 * `profile_optional_linked` for a skill linked in the project) nor the committed `agents-md`
 * block. The list is kept in the project's profiles.json, committed; the list after.
 */
export function markOptional(request: {
  readonly environment: Environment;
  readonly skills: readonly string[];
  readonly optional: boolean;
}): readonly string[] {
  const { environment, skills, optional } = request;
  const read = profilesIn(environment, "project");
  if ("problem" in read)
    throw new SkillshelfError("profile_invalid", read.problem.message, {
      path: read.problem.path,
    });
  if (optional) {
    const linked = projectLinked(environment);
    const skill = skills.find((one) => linked.has(one));
    if (skill !== undefined)
      throw new SkillshelfError(
        "profile_optional_linked",
        `${skill} is linked into the project's agent folders, which every contributor gets: it cannot be optional`,
        { details: { skill } },
      );
  }
  const marked = new Set(read.optional);
  for (const skill of skills) optional ? marked.add(skill) : marked.delete(skill);
  const after = [...marked].sort();
  writeProfiles(environment, "project", { ...read, optional: after });
  return after;
}

/**
 * The project's optional skills that reach none of this contributor's agents: those the profile
 * they use here does not name (all of them while they use none).
 */
export function optionalLeftOut(environment: Environment): readonly string[] {
  const using = profileInUse(environment);
  const named = new Set(
    using === undefined
      ? []
      : (readProfiles(environment).profiles.find((one) => one.name === using)?.skills ?? []),
  );
  return optionalSkills(environment).filter((skill) => !named.has(skill));
}

/**
 * Make each agent's own switch say what this contributor's optional skills are: those their
 * profile does not name off (`optionalLeftOut`) where the agent sees them, and `on` (no longer
 * optional, say) back on where Skillshelf turned them off. Only agents with a switch whose
 * settings folder exists here (the agent is used on this machine); nothing is written when there
 * is nothing to say. A switch that cannot be written (a file that does not parse) is left as it
 * is and said as a warning: what called this has already done its work.
 */
export async function settleOptional(
  environment: Environment,
  on: readonly string[] = [],
): Promise<{
  readonly writes: readonly SwitchWrite[];
  readonly diagnostics: readonly Diagnostic[];
}> {
  const off = optionalLeftOut(environment);
  const writes: SwitchWrite[] = [];
  const diagnostics: Diagnostic[] = [];
  if (off.length === 0 && on.length === 0) return { writes, diagnostics };
  for (const agent of AGENTS) {
    const place = agent.view?.settings?.switch;
    if (place === undefined || !existsSync(dirname(join(environment.home, place.file.path))))
      continue;
    const [explained] = explainAgents({ ...environment, agent: agent.id });
    const seen = new Set(explained?.loaded.map((one) => one.name));
    const change = { off: off.filter((skill) => seen.has(skill)), on };
    if (change.off.length === 0 && on.length === 0) continue;
    try {
      writes.push(await switchSkills(environment, agent, change));
    } catch (error) {
      if (!isSkillshelfError(error)) throw error;
      diagnostics.push({ ...errorDiagnostic(error), severity: "warning" });
    }
  }
  return { writes, diagnostics };
}

/**
 * Use profile `name` for `agents` (each agent of the table with a switch and a folder here, when
 * none is named): every skill the agent sees here that the profile does not name is turned off in
 * the agent's own switch, and what an earlier profile turned off is turned back on — only the
 * entries Skillshelf wrote, never the user's own. An agent named that has no switch follows
 * through the user-scope links Skillshelf made for it (`parkLinks`). For each agent, the
 * profile's skills it does not see and what its listing budget does to them. The choice is
 * recorded for this project in the user library (`profile_unknown` for a name no scope keeps).
 */
export async function useProfile(request: {
  readonly environment: Environment;
  readonly name: string;
  readonly agents?: readonly string[] | undefined;
}): Promise<{
  readonly profile: Profile;
  readonly agents: readonly ProfileAgent[];
  readonly diagnostics: readonly Diagnostic[];
}> {
  const { environment, name } = request;
  const profile = profileNamed(environment, name);
  const agents: ProfileAgent[] = [];
  const diagnostics: Diagnostic[] = [];
  const wanted = new Set(profile.skills);
  for (const { agent, explained } of agentsFor(environment, request.agents)) {
    const { seen, missing, budget } = fitFor(explained, profile);
    if (agent.view?.settings?.switch === undefined) {
      // no switch: the links Skillshelf made for it in the user's folders are the switch
      diagnostics.push(
        createDiagnostic(
          "warning",
          "agent_switch_missing",
          `${agent.label} documents no per-skill switch: only the links Skillshelf made in your user folders follow the profile`,
          { details: { agent: agent.id } },
        ),
      );
      const { problems, ...links } = parkLinks(environment, agent.id, wanted);
      diagnostics.push(...problems);
      agents.push({ agent: agent.id, links, missing, budget });
      continue;
    }
    // every other skill off; what an earlier profile (or disable --agent) turned off, back on
    const write = await switchSkills(environment, agent, {
      off: seen.filter((skill) => !wanted.has(skill)),
      on: switchedOff(environment, agent.id),
    });
    agents.push({ agent: agent.id, write, missing, budget });
  }
  writeJsonFile(usingPath(environment), { ...readUsing(environment), [environment.project]: name });
  return { profile, agents, diagnostics };
}

/**
 * What profile `name` would be for `agents` (as `useProfile` picks them), writing nothing: for
 * each, the profile's skills it does not see here and what its listing budget does to the rest.
 */
export function profileFit(
  environment: Environment,
  name: string,
  agents?: readonly string[],
): { readonly profile: Profile; readonly agents: readonly ProfileAgent[] } {
  const profile = profileNamed(environment, name);
  return {
    profile,
    agents: agentsFor(environment, agents, { relevant: "switch-or-budget" }).map(
      ({ agent, explained }) => {
        const { missing, budget } = fitFor(explained, profile);
        return { agent: agent.id, missing, budget };
      },
    ),
  };
}

/** The profile this contributor uses in this project, when one was used. */
export function profileInUse(environment: Environment): string | undefined {
  return readUsing(environment)[environment.project];
}

// --- internal ---

function profileNamed(environment: Environment, name: string): Profile {
  const { profiles } = readProfiles(environment);
  const profile = profiles.find((one) => one.name === name);
  if (profile !== undefined) return profile;
  const names = [...new Set(profiles.map((one) => one.name))];
  throw new SkillshelfError(
    "profile_unknown",
    `no profile is named ${name} here${names.length === 0 ? "" : `; profiles: ${names.join(", ")}`}`,
    { details: { name } },
  );
}

/** The skills an agent sees here, the profile's it does not, and its budget over the profile's. */
function fitFor(
  explained: AgentExplanation | undefined,
  profile: Profile,
): {
  readonly seen: readonly string[];
  readonly missing: readonly string[];
  readonly budget?: BudgetEffect;
} {
  const loaded = explained?.loaded ?? [];
  const wanted = new Set(profile.skills);
  const rule = explained?.budget?.rule;
  return {
    seen: loaded.map((one) => one.name),
    missing: profile.skills.filter((skill) => !loaded.some((one) => one.name === skill)),
    ...(rule === undefined
      ? {}
      : {
          budget: applyBudget(
            rule,
            loaded.filter((one) => wanted.has(one.name)),
          ),
        }),
  };
}

/** Which profile the user uses in each project: theirs, in the user library. */
function usingPath(environment: Environment): string {
  return join(environment.configDir, "profiles-in-use.json");
}

/** The skill names linked into the project's agent folders (a link's key ends in its name). */
function projectLinked(environment: Environment): ReadonlySet<string> {
  const read = readScopeState(environment, "project");
  const links = read.ok ? Object.entries(read.value.state.links ?? {}) : [];
  return new Set(
    links.filter(([, link]) => link.kind === "skill").map(([key]) => key.split("/").at(-1) ?? key),
  );
}

function readUsing(environment: Environment): Record<string, string> {
  const value = readJsonFile(usingPath(environment))?.value;
  return typeof value === "object" && value !== null
    ? Object.fromEntries(
        Object.entries(value).filter(
          (entry): entry is [string, string] => typeof entry[1] === "string",
        ),
      )
    : {};
}

/**
 * The agents named (`agent_unknown` for one the table lacks), else those with a folder here and a
 * switch (or, for `switch-or-budget`, a switch or a documented listing budget); each with what it
 * would load here, explained once.
 */
function agentsFor(
  environment: Environment,
  named: readonly string[] | undefined,
  { relevant = "switch" }: { readonly relevant?: "switch" | "switch-or-budget" } = {},
): readonly { readonly agent: AgentDefinition; readonly explained?: AgentExplanation }[] {
  if (named !== undefined && named.length > 0)
    return named.map((id) => {
      const agent = findAgent(id);
      if (agent === undefined)
        throw new SkillshelfError("agent_unknown", `${id} is not an agent of the table`, {
          details: { agent: id },
        });
      const [explained] = explainAgents({ ...environment, agent: agent.id });
      return { agent, ...(explained === undefined ? {} : { explained }) };
    });
  // one explanation of every agent, each folder read once for all of them
  const here = new Map(
    explainAgents(environment)
      .filter((one) => one.roots.some((root) => root.exists))
      .map((one) => [one.agent, one]),
  );
  return AGENTS.flatMap((agent) => {
    const explained = here.get(agent.id);
    const relevantHere =
      agent.view?.settings?.switch !== undefined ||
      (relevant === "switch-or-budget" && agent.view?.budget !== undefined);
    return explained !== undefined && relevantHere ? [{ agent, explained }] : [];
  });
}
