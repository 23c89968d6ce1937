import { dirname, join } from "node:path";
import {
  AGENTS,
  detailsOf,
  type Environment,
  isInside,
  type Scope,
  scopeAnchor,
} from "@skillshelf/core";
import {
  defaultSkillRoots,
  type LoadSkillsResult,
  type Skill,
  skillIdentity,
} from "@skillshelf/skills-loader";
import { PACKAGE_SCOPES, readScopeState } from "@skillshelf/store";
import { displayPath, type PathStyle } from "../format.js";

/** One place a skill was found: `agent` is the agent table's id, `null` for our own library or packages. */
export interface SkillLocation {
  readonly path: string;
  readonly agent: string | null;
  readonly scope: Scope;
  /** A link Skillshelf made into that agent's folder. */
  readonly linked: boolean;
  /** The identity of the content there. */
  readonly digest: string;
}

/** The skills of one name and one identity: every place they were found. */
export interface SkillIdentity {
  readonly name: string;
  readonly identity: string;
  /** The copy that stands for the group: the winner of the name when it is in the group. */
  readonly skill: Skill;
  readonly winner: boolean;
  readonly locations: readonly SkillLocation[];
  /** Every identity found for the name, when there is more than one: the copies drifted apart. */
  readonly drift?: readonly string[] | undefined;
}

/**
 * Group every skill a read found (the winners, the copies that lost a name clash, and the
 * same files reached through links) by name, then by identity (the normalized
 * content, so a source and its installed or linked copies are one identity). A name whose
 * copies say different things is flagged with every identity it has. `knownIdentity`: a skill's
 * identity known already (read with its file's hash, or kept by an earlier run).
 */
export function skillIdentities(
  environment: Environment,
  result: LoadSkillsResult,
  only?: string,
  knownIdentity?: (skill: Skill) => string | undefined,
): SkillIdentity[] {
  const linked = linkedPaths(environment);
  const roots = defaultSkillRoots(environment);
  const identities = new Map<string, string>();
  const identityOf = (skill: Skill) => {
    let identity = identities.get(skill.realPath);
    if (identity === undefined) {
      identity = knownIdentity?.(skill) ?? skillIdentity(skill);
      identities.set(skill.realPath, identity);
    }
    return identity;
  };
  const location = (skill: Skill, path: string, scope: Scope, source: string): SkillLocation => ({
    path,
    agent: AGENT_IDS.has(source) ? source : null,
    scope,
    linked: linked.has(dirname(path)),
    digest: identityOf(skill),
  });
  let byPath: Map<string, Skill> | undefined;
  const aliases = new Map<Skill, SkillLocation[]>();
  for (const diagnostic of result.diagnostics) {
    const duplicate = detailsOf(diagnostic, "duplicate_file");
    if (duplicate === undefined || diagnostic.path === undefined) continue;
    byPath ??= new Map(result.items.map((skill) => [skill.path, skill]));
    const winner = byPath.get(duplicate.winnerPath);
    if (winner === undefined) continue;
    const root = roots
      .filter((candidate) => isInside(candidate.path, diagnostic.path as string))
      .sort((a, b) => b.path.length - a.path.length)[0];
    const scope = duplicate.loserScope;
    const list = aliases.get(winner) ?? [];
    list.push(location(winner, diagnostic.path, scope, root?.source ?? "package"));
    aliases.set(winner, list);
  }
  const losersOf = new Map(
    result.collisions.map((group) => [group.winner, group.losers.map((loss) => loss.item)]),
  );
  const groups: SkillIdentity[] = [];
  for (const winner of result.items) {
    if (only !== undefined && winner.name !== only) continue;
    const losers = losersOf.get(winner);
    if (losers === undefined && !aliases.has(winner)) {
      // most names: one copy, found once
      const only = location(winner, winner.path, winner.scope, winner.source);
      groups.push({
        name: winner.name,
        identity: only.digest,
        skill: winner,
        winner: true,
        locations: [only],
      });
      continue;
    }
    const copies = [winner, ...(losers ?? [])];
    const named: SkillIdentity[] = [];
    for (const skill of copies) {
      const identity = identityOf(skill);
      const here = [
        location(skill, skill.path, skill.scope, skill.source),
        ...(aliases.get(skill) ?? []),
      ];
      const group = named.find((candidate) => candidate.identity === identity);
      if (group === undefined)
        named.push({
          name: winner.name,
          identity,
          skill,
          winner: skill === winner,
          locations: here,
        });
      else (group.locations as SkillLocation[]).push(...here);
    }
    const drift = named.length > 1 ? named.map((group) => group.identity) : undefined;
    groups.push(...named.map((group) => (drift === undefined ? group : { ...group, drift })));
  }
  return groups;
}

/** One location as people read it: the path, then whose folder, the scope, and whether we linked it. */
export function locationLine(place: SkillLocation, style: PathStyle): string {
  return `${displayPath(place.path, style)} (${place.agent ?? "skillshelf"}, ${place.scope}${place.linked ? ", linked" : ""})`;
}

// --- internal ---

const AGENT_IDS: ReadonlySet<string> = new Set(AGENTS.map((agent) => agent.id));

/** The folders of the skill links Skillshelf made, in both scopes. */
function linkedPaths(environment: Environment): Set<string> {
  const paths = new Set<string>();
  for (const scope of PACKAGE_SCOPES) {
    const read = readScopeState(environment, scope);
    if (!read.ok) continue;
    for (const [key, record] of Object.entries(read.value.state.links ?? {}))
      if (record.kind === "skill") paths.add(join(scopeAnchor(environment, scope), key));
  }
  return paths;
}
