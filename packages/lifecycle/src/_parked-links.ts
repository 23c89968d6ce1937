// For an agent that documents no per-skill switch, linking and unlinking is the switch: a profile
// takes away the links Skillshelf made for it in the user's folders (parked, in the user library)
// and makes them again once a profile names their skills. Project links are the team's (in the
// committed lock) and never parked.
import { join } from "node:path";
import { agentFolder, type Diagnostic, type Environment } from "@skillshelf/core";
import { readScopeState } from "@skillshelf/store";
import { readJsonFile, writeJsonFile } from "./_json-file.js";
import { applyLinks, type LinkApplyResult, planLinks, planUnlinks } from "./link.js";

/** What parking one agent's links did: the skills unlinked, those linked again, what failed. */
export interface ParkedLinks {
  readonly unlinked: readonly string[];
  readonly relinked: readonly string[];
  /** A write refused or failed (a folder of someone else's where a link goes back): left as is. */
  readonly problems: readonly Diagnostic[];
}

/**
 * Make `agent`'s user-scope links of Skillshelf's match `wanted`: a link to a skill not wanted
 * taken away and parked, a parked one whose skill is wanted made again (as it was: a copy or a
 * symlink). A link in a folder several agents read goes for all of them. A write that does not
 * commit changes nothing it names: those links stay as they were, parked or not.
 */
export function parkLinks(
  environment: Environment,
  agent: string,
  wanted: ReadonlySet<string>,
): ParkedLinks {
  const folder = agentFolder(agent, "user", "skill");
  const read = readScopeState(environment, "user");
  const links = read.ok ? Object.entries(read.value.state.links ?? {}) : [];
  const parked = readParked(environment);
  const problems: Diagnostic[] = [];
  const done = (result: LinkApplyResult) => {
    if (result.error !== undefined) problems.push(result.error);
    return result.status === "committed" || result.status === "unchanged";
  };
  const unwanted = links
    .filter(([key, record]) => record.kind === "skill" && key.startsWith(`${folder}/`))
    .map(([key, record]) => ({
      name: key.slice(`${folder}/`.length),
      copy: record.mode === "copy",
    }))
    .filter((link) => !wanted.has(link.name));
  const unlinked =
    unwanted.length > 0 &&
    !done(
      applyLinks(
        planUnlinks({
          environment,
          scope: "user",
          names: unwanted.map((one) => one.name),
          agents: [agent],
        }),
      ),
    )
      ? []
      : unwanted;
  // each parked link on its own: one that cannot come back does not hold back the others, and
  // one whose skill is gone is forgotten
  const relinked: string[] = [];
  const gone: string[] = [];
  for (const link of parked[agent] ?? []) {
    if (!wanted.has(link.name)) continue;
    const plan = planLinks({
      environment,
      scope: "user",
      names: [link.name],
      agents: [agent],
      copy: link.copy,
    });
    if (plan.steps.some((step) => step.refusal?.code === "link_source_unknown"))
      gone.push(link.name);
    else if (done(applyLinks(plan))) relinked.push(link.name);
  }
  const settled = new Set([...relinked, ...gone]);
  const kept = (parked[agent] ?? []).filter((link) => !settled.has(link.name));
  writeJsonFile(parkedPath(environment), {
    version: 1,
    agents: { ...parked, [agent]: [...kept, ...unlinked] },
  });
  return {
    unlinked: unlinked.map((one) => one.name).sort(),
    relinked: relinked.sort(),
    problems,
  };
}

// --- internal ---

interface ParkedLink {
  readonly name: string;
  readonly copy: boolean;
}

function parkedPath(environment: Environment): string {
  return join(environment.configDir, "parked-links.json");
}

function readParked(environment: Environment): Record<string, readonly ParkedLink[]> {
  const value = readJsonFile(parkedPath(environment))?.value as
    | { version?: unknown; agents?: unknown }
    | undefined;
  if (value?.version !== 1 || typeof value.agents !== "object" || value.agents === null) return {};
  const links = (list: unknown) =>
    Array.isArray(list)
      ? list.filter(
          (one): one is ParkedLink =>
            typeof one?.name === "string" && typeof one?.copy === "boolean",
        )
      : [];
  return Object.fromEntries(
    Object.entries(value.agents).map(([agent, list]) => [agent, links(list)]),
  );
}
