import type { Environment } from "@skillshelf/core";
import { readSessionLogs } from "@skillshelf/session-logs";
import { PACKAGE_SCOPES, readScopeState, readUsage } from "@skillshelf/store";

/** What was used of one skill: served by skillshelf mcp, and invoked as agents' own logs show. */
export interface SkillUses {
  readonly skill: string;
  /** `skills/get` requests of skillshelf mcp. */
  readonly gets: number;
  /** `resources/read` requests of its files. */
  readonly reads: number;
  /** Invocations in agents' session logs, by agent. */
  readonly invoked: Readonly<Record<string, number>>;
  /** The plugins it was invoked under (`plugin:skill`), as the agent wrote them. */
  readonly plugins?: readonly string[] | undefined;
  /** Those plugins that are packages installed here (a plugin installed as the package of its name). */
  readonly packages?: readonly string[] | undefined;
  readonly firstDay: string;
  readonly lastDay: string;
}

/** A skill's uses in all: what was served of it and how often it was invoked. */
export function usesOf(skill: SkillUses): number {
  return skill.gets + skill.reads + Object.values(skill.invoked).reduce((a, b) => a + b, 0);
}

/**
 * Each skill's uses from `since` (`YYYY-MM-DD`, or `""` for all), most used first: the counts of
 * `usage.jsonl` and the invocations in agents' session logs on this machine, read now and kept
 * nowhere; `undefined` while counting is off (`skillshelf usage enable`).
 */
export function skillUses(
  environment: Environment,
  since: string,
): { readonly skills: readonly SkillUses[]; readonly logFiles: number } | undefined {
  const served = readUsage(environment, since);
  if (served === undefined) return undefined;
  const bySkill = new Map<string, SkillUses>(
    served.skills.map((skill) => [skill.skill, { ...skill, invoked: {} }]),
  );
  const logs = readSessionLogs(environment, { since });
  const installed = new Set(
    PACKAGE_SCOPES.flatMap((scope) => {
      const read = readScopeState(environment, scope);
      return read.ok ? Object.keys(read.value.state.installed) : [];
    }),
  );
  for (const { skill, agent, plugin, day } of logs.invocations) {
    const seen = bySkill.get(skill);
    const plugins = new Set(seen?.plugins ?? []);
    if (plugin !== undefined) plugins.add(plugin);
    bySkill.set(skill, {
      skill,
      gets: seen?.gets ?? 0,
      reads: seen?.reads ?? 0,
      invoked: { ...seen?.invoked, [agent]: (seen?.invoked[agent] ?? 0) + 1 },
      ...(plugins.size === 0 ? {} : { plugins: [...plugins].sort() }),
      ...([...plugins].some((one) => installed.has(one))
        ? { packages: [...plugins].filter((one) => installed.has(one)).sort() }
        : {}),
      firstDay: seen === undefined || day < seen.firstDay ? day : seen.firstDay,
      lastDay: seen === undefined || day > seen.lastDay ? day : seen.lastDay,
    });
  }
  const skills = [...bySkill.values()].sort(
    (a, b) => usesOf(b) - usesOf(a) || (a.skill < b.skill ? -1 : 1),
  );
  return { skills, logFiles: logs.files };
}
