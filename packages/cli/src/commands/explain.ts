import { unreadSwitchFiles } from "@skillshelf/core";
import { servedSkills } from "@skillshelf/mcp/served";
import { consentStatus } from "@skillshelf/resources";
import { type AgentExplanation, explainAgents, type SkillCache } from "@skillshelf/skills-loader";
import { consentFolder } from "@skillshelf/store";
import { keptSkills } from "../_skill-cache.js";
import type { CommandInput } from "../command.js";
import { type CommandContext, printJson } from "../context.js";
import { displayPath, type Paint, type PathStyle, painter, plural, safeLine } from "../format.js";
import { resourcesOf } from "../resources.js";

/**
 * Below this many characters a shortened description rarely still says when to use the skill:
 * `explain --check` fails on a cut that leaves less (`--min-description` changes it).
 */
export const MIN_DESCRIPTION = 100;

/** One thing `explain --check` fails on. */
interface CheckFailure {
  readonly agent: string;
  readonly code: "budget_drops_skill" | "budget_shortens_description";
  readonly name: string;
  readonly message: string;
}

/**
 * `explain [--agent ID | --all] [--json] [--check [--min-description N]]`: for each agent of the
 * table with a skill folder here (every one with `--all`), what it would load from here and why. With `--check`, exit 1 when an agent's listing budget
 * would drop a skill or cut a description below the threshold (a lint for CI).
 */
export async function runExplain(
  input: CommandInput<{
    readonly agent: string | undefined;
    readonly all: boolean;
    readonly check: boolean;
    readonly "min-description": number | undefined;
    readonly json: boolean;
  }>,
): Promise<number> {
  const { io } = input;
  const context = input.context();
  const named = input.values.agent;
  // what `list` kept of each skill file it parsed: read, never written, here
  const cache = keptSkills(context, io)?.cache;
  const explained = explainAgents({
    ...context.environment,
    agent: named,
    cache,
    settingsOff: await settingsOff(context.environment),
  });
  // the folders a person trusted for Skillshelf's own listing (`trust`), and whether that holds
  const consents = consentStatus(context.environment).consents.filter((one) =>
    one.key.startsWith("folder:"),
  );
  const trusted = new Map(
    consents.map((one) => [consentFolder(context.environment, one.scope, one.key), one.holds]),
  );
  // of a table of some 80 agents, the ones with a folder here, unless asked for one or all
  const agents =
    named !== undefined || input.values.all
      ? explained
      : explained.filter((agent) => agent.roots.some((root) => root.exists));
  const others = explained.length - agents.length;
  const threshold = input.values["min-description"] ?? MIN_DESCRIPTION;
  const failures = agents.flatMap((agent) => checkFailures(agent, threshold));
  const check = input.values.check;
  const status = check && failures.length > 0 ? 1 : 0;
  // what an MCP client of `skillshelf mcp` here would get: the model-visible skills, by the same pass
  const mcp = named === undefined ? mcpServing(context, cache) : undefined;
  if (input.values.json) {
    printJson(io, context, {
      agents,
      trusted: consents,
      ...(mcp === undefined ? {} : { mcp }),
      ...(check
        ? { check: { minDescription: threshold, ok: failures.length === 0, failures } }
        : {}),
    });
    return status;
  }
  const paint = painter(io.color);
  io.stdout(agents.map((agent) => agentText(agent, trusted, context.style, paint)).join("\n"));
  if (mcp !== undefined) io.stdout(mcpText(mcp, paint));
  if (others > 0)
    io.stdout(
      `${agents.length === 0 ? "" : "\n"}${plural(others, "other agent has", "other agents have")} no skill folder here (--all shows them, --agent ID one)\n`,
    );
  if (check)
    io.stdout(
      failures.length === 0
        ? `\ncheck: no agent drops a skill or cuts a description below ${threshold} characters\n`
        : `\n${failures.map((failure) => `${paint("red", failure.code)} ${safeLine(failure.agent)}: ${safeLine(failure.message)}`).join("\n")}\ncheck: ${plural(failures.length, "problem", "problems")}\n`,
    );
  return status;
}

// --- internal ---

/** What `skillshelf mcp` run here serves, and the skills it does not with why. */
interface McpServing {
  readonly served: readonly string[];
  readonly withheld: readonly {
    readonly name: string;
    readonly path: string;
    readonly reason: string;
  }[];
}

function mcpServing(context: CommandContext, cache: SkillCache | undefined): McpServing {
  const skills = resourcesOf(context, cache).read(context.environment.cwd).load("skill").items;
  const { served, withheld } = servedSkills(skills);
  return {
    served: served.map((skill) => skill.name),
    withheld: withheld.map(({ skill, reason }) => ({ name: skill.name, path: skill.path, reason })),
  };
}

function mcpText(mcp: McpServing, paint: Paint): string {
  const names = mcp.served.length === 0 ? "" : `: ${mcp.served.map(safeLine).join(", ")}`;
  const lines = [
    `\n${paint("bold", "MCP clients")} (skillshelf mcp here): ${plural(mcp.served.length, "skill", "skills")}${names}`,
    ...mcp.withheld.map((one) => `  not served: ${safeLine(one.name)} (${one.reason})`),
  ];
  return `${lines.join("\n")}\n`;
}

function checkFailures(agent: AgentExplanation, threshold: number): CheckFailure[] {
  const budget = agent.budget;
  if (budget === undefined) return [];
  return [
    ...budget.dropped.map(
      (name): CheckFailure => ({
        agent: agent.agent,
        code: "budget_drops_skill",
        name,
        message: `${name} would be left out of the listing (budget ${budget.rule.chars} characters, ${budget.needed} needed)`,
      }),
    ),
    ...budget.shortened
      .filter((cut) => cut.to < threshold)
      .map(
        (cut): CheckFailure => ({
          agent: agent.agent,
          code: "budget_shortens_description",
          name: cut.name,
          message: `${cut.name}'s description would be cut from ${cut.from} to ${cut.to} characters`,
        }),
      ),
  ];
}

const SYMLINKS: Readonly<Record<AgentExplanation["symlinks"], string>> = {
  followed: "a symlink (it follows one)",
  "not-followed": "a copy (it does not load a symlinked folder)",
  unknown: "a symlink (whether it follows one is not documented)",
};

/**
 * One agent's view; `trusted`: the folders trusted for Skillshelf's listing by path, and whether
 * that trust still holds.
 */
function agentText(
  agent: AgentExplanation,
  trusted: ReadonlyMap<string, boolean>,
  style: PathStyle,
  paint: Paint,
): string {
  const lines = [`${paint("bold", agent.label)} (${agent.agent})`, `  source: ${agent.source}`];
  lines.push(
    agent.unknown.includes("order")
      ? "  reads (which folder wins a name is not documented):"
      : "  reads, first wins:",
  );
  agent.roots.forEach((root, index) => {
    const found = root.exists ? plural(root.found, "skill", "skills") : paint("dim", "missing");
    const shared = root.readBy.filter((id) => id !== agent.agent);
    const also = shared.length === 0 ? "" : paint("dim", ` (also read by ${shared.join(", ")})`);
    const held = trusted.get(root.path);
    const trust =
      held === undefined
        ? ""
        : held
          ? paint("green", "; trusted by you for Skillshelf's listing")
          : paint("yellow", "; its trust was revoked: it changed since (skillshelf trust)");
    lines.push(
      `    ${index + 1}. ${displayPath(root.path, style)} (${root.scope}): ${found}${also}${trust}`,
    );
  });
  lines.push(`  linked skills: ${SYMLINKS[agent.symlinks]}`);
  if (agent.unknown.length > 0)
    lines.push(`  ${paint("dim", "not documented")}: ${agent.unknown.join(", ")}`);
  lines.push(
    agent.loaded.length === 0
      ? "  loads no skill here"
      : `  loads ${plural(agent.loaded.length, "skill", "skills")}: ${agent.loaded.map((skill) => `${safeLine(skill.name)} (${skill.root + 1})`).join(", ")}`,
  );
  for (const entry of agent.shadowed)
    lines.push(
      `  ${paint("yellow", "shadowed")} ${safeLine(entry.name)}: ${displayPath(entry.path, style)} by ${displayPath(entry.by, style)}`,
    );
  for (const entry of agent.notLoaded)
    lines.push(
      `  ${paint("red", "not loaded")} ${displayPath(entry.path, style)}: ${entry.code}: ${safeLine(entry.reason)}`,
    );
  for (const entry of agent.hidden)
    lines.push(`  ${paint("dim", "hidden")} ${safeLine(entry.name)}: ${safeLine(entry.reason)}`);
  if (agent.settings !== undefined && !agent.settings.read)
    lines.push(
      `  ${paint("dim", "not read")}: ${agent.settings.files.map((file) => displayPath(file, style)).join(", ")} (${safeLine(agent.settings.note)})`,
    );
  const budget = agent.budget;
  if (budget === undefined) lines.push("  budget: none documented");
  else if (budget.fits)
    lines.push(
      `  budget: ${budget.rule.chars} characters; the listing needs ${budget.needed}: it fits`,
    );
  else {
    lines.push(`  budget: ${budget.rule.chars} characters; the listing needs ${budget.needed}:`);
    if (budget.shortened.length > 0)
      lines.push(
        `    shortens ${plural(budget.shortened.length, "description", "descriptions")} to ${budget.shortened[0]?.to} characters: ${budget.shortened.map((cut) => safeLine(cut.name)).join(", ")}`,
      );
    if (budget.dropped.length > 0)
      lines.push(
        `    ${paint("red", "drops")} ${plural(budget.dropped.length, "skill", "skills")}: ${budget.dropped.map(safeLine).join(", ")}`,
      );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * What each agent's own switch turns off (Codex's config.toml), read where the agent reads it;
 * lifecycle (its reader) is loaded only when such a file is there.
 */
async function settingsOff(environment: CommandContext["environment"]) {
  if (unreadSwitchFiles(environment.home).length === 0) return undefined;
  const { switchesOff } = await import("@skillshelf/lifecycle");
  return switchesOff(environment);
}
