import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  AGENTS,
  type AgentDefinition,
  type AgentViewRoot,
  agentSkillFolder,
} from "@skillshelf/core";
import { describe, expect, it } from "vitest";

const DOC = join(import.meta.dirname, "..", "..", "..", "docs", "agents.md");
const BEGIN =
  "<!-- generated from AGENTS: UPDATE_AGENTS=1 pnpm vitest run packages/core/test/agents-doc.test.ts -->";
const END = "<!-- end of the generated tables -->";

const where = (root: AgentViewRoot): string =>
  root.base === "home"
    ? `\`~/${root.path}\``
    : root.base === "project"
      ? `\`${root.path}\``
      : `\`${root.path}\` (cwd up to the project)`;
const folder = (path: string | undefined, user: boolean): string =>
  path === undefined ? "–" : `\`${user ? "~/" : ""}${path}\``;
const cell = (text: string): string => text.replaceAll("|", "\\|");

const SYMLINKS: Record<AgentDefinition["symlinks"], string> = {
  followed: "symlink",
  "not-followed": "**copy**",
  unknown: "symlink (not documented)",
};

function unknowns(agent: AgentDefinition): string {
  const { view } = agent;
  const missing = [
    view.order === "unknown" ? "order" : undefined,
    view.depth === "unknown" ? "depth" : undefined,
    view.rules === undefined ? "rules" : undefined,
    view.format === undefined ? "format" : undefined,
    view.budget === undefined ? "budget" : undefined,
    agent.symlinks === "unknown" ? "symlinks" : undefined,
  ].filter((fact) => fact !== undefined);
  return missing.length === 0 ? "–" : missing.join(", ");
}

function refuses(agent: AgentDefinition): string {
  const rules = agent.view.rules;
  if (rules === undefined) return "not documented";
  const found = [
    rules.requireName ? "name missing" : undefined,
    rules.strictName ? "name not strict or not the folder's" : undefined,
    rules.exactFileName === true ? "a file not named `SKILL.md`" : undefined,
    rules.maxDescription === undefined ? undefined : `description over ${rules.maxDescription}`,
  ].filter((rule) => rule !== undefined);
  return found.length === 0 ? "–" : found.join("; ");
}

/** The tables of docs/agents.md, as the agent table gives them. */
function renderTables(): string {
  const lines = [
    BEGIN,
    "",
    `### Every agent (${AGENTS.length})`,
    "",
    "| id | agent | reads skills from | links go to (project; user) | a linked skill is | not documented | source |",
    "|---|---|---|---|---|---|---|",
    ...AGENTS.map((agent) => {
      const ids = [agent.id, ...(agent.aliases ?? [])].map((id) => `\`${id}\``).join(", ");
      const order = agent.view.order === "documented" ? " (first wins)" : "";
      return `| ${ids} | ${cell(agent.label)} | ${agent.view.skillRoots.map(where).join(", ")}${order} | ${folder(agentSkillFolder(agent, "project"), false)}; ${folder(agentSkillFolder(agent, "user"), true)} | ${SYMLINKS[agent.symlinks]} | ${unknowns(agent)} | ${cell(agent.view.source)} |`;
    }),
    "",
    "### Prompt templates and sub-agents",
    "",
    "| id | user prompts | project prompts | user agents | project agents |",
    "|---|---|---|---|---|",
    ...AGENTS.filter(
      (agent) =>
        agent.userPromptRoot !== undefined ||
        agent.projectPromptRoot !== undefined ||
        agent.userAgentRoot !== undefined ||
        agent.projectAgentRoot !== undefined,
    ).map(
      (agent) =>
        `| \`${agent.id}\` | ${folder(agent.userPromptRoot, true)} | ${folder(agent.projectPromptRoot, false)} | ${folder(agent.userAgentRoot, true)} | ${folder(agent.projectAgentRoot, false)} |`,
    ),
    "",
    "### Depth, rules, settings, format and budget (where documented)",
    "",
    "| id | depth | refuses | settings | format | budget |",
    "|---|---|---|---|---|---|",
    ...AGENTS.filter((agent) => agent.view.rules !== undefined).map((agent) => {
      const { view } = agent;
      const settings =
        view.settings === undefined
          ? "–"
          : `${view.settings.files.map(where).join(", ")}: ${cell(view.settings.note)}${view.settings.read ? " (read)" : view.settings.switch === undefined ? " (not read)" : " (read through its switch)"}${view.settings.switch === undefined ? "" : `; \`profile use\` writes ${where(view.settings.switch.file)} (${cell(view.settings.switch.source)})`}`;
      const budget =
        view.budget === undefined
          ? "none documented"
          : `${view.budget.chars.toLocaleString("en")} characters, then ${view.budget.over} (${cell(view.budget.source)})`;
      return `| \`${agent.id}\` | ${view.depth} | ${refuses(agent)} | ${settings} | ${view.format ?? "not documented"} | ${budget} |`;
    }),
    "",
    END,
  ];
  return lines.join("\n");
}

describe("docs/agents.md (issue 25, item 5)", () => {
  it("holds the agent table exactly as generated from AGENTS", () => {
    const doc = readFileSync(DOC, "utf8");
    const start = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    expect(start, "docs/agents.md needs the generated region's markers").toBeGreaterThan(-1);
    const rendered = `${doc.slice(0, start)}${renderTables()}${doc.slice(end + END.length)}`;
    if (process.env.UPDATE_AGENTS === "1") writeFileSync(DOC, rendered);
    expect(readFileSync(DOC, "utf8")).toBe(rendered);
  });
});
