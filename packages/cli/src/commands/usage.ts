import { isModelVisible } from "@skillshelf/skills-loader";
import { disableUsage, enableUsage, usageFilePath } from "@skillshelf/store";
import type { CommandInput } from "../command.js";
import { printJson } from "../context.js";
import { displayPath, safeLine } from "../format.js";
import { resourcesOf } from "../resources.js";
import { UsageError } from "../usage-error.js";
import { skillUses } from "./_skill-uses.js";

/**
 * `usage [enable | disable]`: what MCP clients asked of each skill (the local usage file) and
 * what agents' session logs show was invoked; or switch counting on (the file made) or off (the
 * file and its counts removed).
 */
export function runUsage(
  input: CommandInput<{
    readonly json: boolean;
    readonly since: number | undefined;
    readonly unused: number | undefined;
  }>,
): number {
  const { io, values } = input;
  const context = input.context();
  const { environment } = context;
  const [action] = input.positionals;
  const file = usageFilePath(environment);
  const shown = displayPath(file, context.style);
  if (action === "enable" || action === "disable") {
    const on = action === "enable";
    if (on) enableUsage(environment);
    const removed = on ? false : disableUsage(environment);
    if (values.json) printJson(io, context, { enabled: on, file });
    else
      io.stdout(
        on
          ? `usage is counted in ${shown} (local only; skillshelf usage disable stops and forgets)\n`
          : `usage is not counted${removed ? `; ${shown} removed` : ""}\n`,
      );
    return 0;
  }
  if (action !== undefined)
    throw new UsageError("usage_invalid_value", `${action}: write enable, disable or nothing`);
  if (values.unused !== undefined && values.since !== undefined)
    throw new UsageError("usage_invalid_value", "--unused DAYS already says since when");
  const days = values.unused ?? values.since;
  const since =
    days === undefined ? "" : new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  const usage = skillUses(environment, since);
  if (values.unused !== undefined && usage !== undefined) {
    // the skills a model may use here that nothing asked for in those days
    const used = new Set(usage.skills.map((skill) => skill.skill));
    const unused = resourcesOf(context)
      .read(environment.cwd)
      .load("skill")
      .items.filter(isModelVisible)
      .map((skill) => skill.name)
      .filter((name) => !used.has(name))
      .sort();
    if (values.json) printJson(io, context, { enabled: true, file, since, unused });
    else {
      io.stdout(
        unused.length === 0
          ? `every skill here was asked for since ${since}\n`
          : `not asked for since ${since}:\n`,
      );
      for (const name of unused) io.stdout(`  ${safeLine(name)}\n`);
    }
    return 0;
  }
  if (values.json) {
    printJson(io, context, {
      enabled: usage !== undefined,
      file,
      ...(since === "" ? {} : { since }),
      skills: usage?.skills ?? [],
      ...(usage === undefined ? {} : { logFiles: usage.logFiles }),
    });
    return usage === undefined ? 1 : 0;
  }
  if (usage === undefined) {
    io.stderr("usage is not counted: run skillshelf usage enable to count it (locally only)\n");
    return 1;
  }
  if (usage.skills.length === 0)
    io.stdout(`nothing counted yet in ${shown}, nor in ${usage.logFiles} agent session logs\n`);
  for (const skill of usage.skills) {
    const invoked = Object.entries(skill.invoked).map(([agent, count]) => `${agent} ${count}`);
    const plugins =
      skill.plugins === undefined ? "" : ` [${skill.plugins.map(safeLine).join(", ")}]`;
    io.stdout(
      `${safeLine(skill.skill)}${plugins}  ${skill.gets} get${skill.gets === 1 ? "" : "s"}, ${skill.reads} read${skill.reads === 1 ? "" : "s"}${invoked.length === 0 ? "" : `, invoked: ${invoked.join(", ")}`} (${skill.firstDay} to ${skill.lastDay})\n`,
    );
  }
  return 0;
}
