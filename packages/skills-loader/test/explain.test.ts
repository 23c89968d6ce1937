import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { AGENTS, resolveEnvironment } from "@skillshelf/core";
import { type AgentExplanation, applyBudget, explainAgents } from "@skillshelf/skills-loader";
import { skillFile, type Tree, testEnvironment, writeTree } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

/** A home and a project (a git work tree) with cwd two folders below the project root. */
function workspace() {
  const { home, cwd: project } = testEnvironment();
  mkdirSync(join(project, ".git"));
  const cwd = join(project, "apps", "web");
  mkdirSync(cwd, { recursive: true });
  const environment = resolveEnvironment({
    home,
    cwd,
    configDir: join(home, ".config", "skillshelf"),
    env: {},
  });
  return { home, project, cwd, environment };
}

const skill = (name: string, description = `The ${name} skill.`, extra = "") => ({
  "SKILL.md": skillFile(name, description, extra),
});

function put(base: string, folder: string, name: string, files: Tree = skill(name)) {
  writeTree(join(base, folder, name), files);
}

const byAgent = (agents: AgentExplanation[]) =>
  Object.fromEntries(agents.map((agent) => [agent.agent, agent]));

describe("explainAgents", () => {
  it("lists every agent's roots in its own order, parents included where it reads them", () => {
    const { home, project, cwd, environment } = workspace();
    const agents = byAgent(explainAgents(environment));
    const roots = (id: string) => agents[id]?.roots.map((root) => [root.path, root.scope]);
    const up = (folder: string) => [
      [join(cwd, folder), "project"],
      [join(project, "apps", folder), "project"],
      [join(project, folder), "project"],
    ];
    expect(Object.keys(agents).slice(0, 6)).toEqual([
      "claude-code",
      "codex",
      "opencode",
      "copilot",
      "pi",
      "agents",
    ]);
    expect(Object.keys(agents)).toEqual(AGENTS.map((agent) => agent.id));
    // a folder many agents read names them all
    const shared = agents.codex?.roots.find((root) => root.path === join(home, ".agents/skills"));
    expect(shared?.readBy).toEqual(expect.arrayContaining(["codex", "cline", "pi", "zed"]));
    // what an agent does not document is said, never guessed (issue 25, item 3)
    expect(agents.cursor).toMatchObject({
      symlinks: "not-followed",
      unknown: ["order", "depth", "rules", "format", "budget"],
    });
    expect(agents.cursor?.format).toBeUndefined();
    expect(agents["claude-code"]?.unknown).toEqual([]);
    expect(agents.grok?.unknown).toEqual([
      "order",
      "depth",
      "rules",
      "format",
      "budget",
      "symlinks",
    ]);
    expect(roots("claude-code")).toEqual([
      [join(home, ".claude/skills"), "user"],
      [join(project, ".claude/skills"), "project"],
    ]);
    expect(roots("codex")).toEqual([
      ...up(".agents/skills"),
      [join(home, ".agents/skills"), "user"],
      [join(home, ".codex/skills"), "user"],
    ]);
    expect(roots("opencode")).toEqual([
      ...up(".opencode/skills"),
      ...up(".claude/skills"),
      ...up(".agents/skills"),
      [join(home, ".config/opencode/skills"), "user"],
      [join(home, ".claude/skills"), "user"],
      [join(home, ".agents/skills"), "user"],
    ]);
    expect(roots("copilot")).toEqual([
      [join(project, ".github/skills"), "project"],
      [join(project, ".claude/skills"), "project"],
      [join(project, ".agents/skills"), "project"],
      [join(home, ".copilot/skills"), "user"],
      [join(home, ".agents/skills"), "user"],
    ]);
    expect(roots("pi")).toEqual([
      [join(home, ".pi/agent/skills"), "user"],
      [join(home, ".agents/skills"), "user"],
      ...up(".pi/skills"),
      ...up(".agents/skills"),
    ]);
    expect(roots("agents")).toEqual([
      [join(project, ".agents/skills"), "project"],
      [join(home, ".agents/skills"), "user"],
    ]);
    expect(explainAgents({ ...environment, agent: "pi" }).map((agent) => agent.agent)).toEqual([
      "pi",
    ]);
  });

  it("gives each name to the first root holding it, by that agent's order, and says what it shadows", () => {
    const { home, project, cwd, environment } = workspace();
    put(home, ".claude/skills", "pdf");
    put(project, ".claude/skills", "pdf");
    put(project, ".agents/skills", "deploy");
    put(cwd, ".agents/skills", "deploy");
    const agents = byAgent(explainAgents(environment));
    const winner = (id: string, name: string) =>
      agents[id]?.loaded.find((entry) => entry.name === name)?.path;
    // Claude Code: personal beats project
    expect(winner("claude-code", "pdf")).toBe(join(home, ".claude/skills/pdf/SKILL.md"));
    expect(agents["claude-code"]?.shadowed).toEqual([
      {
        name: "pdf",
        path: join(project, ".claude/skills/pdf/SKILL.md"),
        by: join(home, ".claude/skills/pdf/SKILL.md"),
      },
    ]);
    // OpenCode: project folders first
    expect(winner("opencode", "pdf")).toBe(join(project, ".claude/skills/pdf/SKILL.md"));
    // Codex: the nearest .agents/skills wins
    expect(winner("codex", "deploy")).toBe(join(cwd, ".agents/skills/deploy/SKILL.md"));
    // Copilot and the Agent Skills guide read the project root only
    expect(winner("copilot", "deploy")).toBe(join(project, ".agents/skills/deploy/SKILL.md"));
    expect(agents.agents?.shadowed).toEqual([]);
    expect(winner("claude-code", "deploy")).toBeUndefined();
  });

  it("refuses by each agent's own rules and hides what its settings or the skill hide", () => {
    const { home, project, environment } = workspace();
    put(project, ".agents/skills", "Bad_Name");
    put(project, ".agents/skills", "wordy", skill("wordy", "x".repeat(1100)));
    put(
      project,
      ".agents/skills",
      "operator",
      skill("operator", "Operator only.", "disable-model-invocation: true\n"),
    );
    put(project, ".claude/skills/tools", "nested");
    put(project, ".opencode/skills", "quiet");
    writeTree(project, {
      "opencode.json": JSON.stringify({ skills: { enabled: { quiet: false } } }),
    });
    put(home, ".claude/skills", "mismatch", skill("other-name"));
    put(project, ".github/skills", "lower", { "skill.md": skillFile("lower", "Lower case file.") });
    const agents = byAgent(explainAgents(environment));
    const refused = (id: string) => agents[id]?.notLoaded.map((entry) => [entry.name, entry.code]);
    expect(refused("agents")).toEqual([
      ["Bad_Name", "agent_name_invalid"],
      ["wordy", "agent_description_too_long"],
    ]);
    expect(refused("codex")).toEqual([["wordy", "agent_description_too_long"]]);
    expect(refused("pi")).toEqual([]);
    expect(refused("copilot")).toContainEqual(["lower", "agent_file_name"]);
    expect(refused("claude-code")).toEqual([["nested", "agent_too_deep"]]);
    expect(agents.opencode?.loaded.map((entry) => entry.name)).toContain("nested");
    expect(agents.opencode?.notLoaded.map((entry) => [entry.name, entry.code])).toContainEqual([
      "other-name",
      "agent_name_invalid",
    ]);
    expect(agents.opencode?.hidden).toEqual([
      { name: "operator", reason: "disable-model-invocation: true" },
      { name: "quiet", reason: `disabled in ${join(project, "opencode.json")}` },
    ]);
    expect(agents.codex?.settings).toMatchObject({
      read: false,
      files: [join(home, ".codex/config.toml")],
    });
  });
});

describe("applyBudget", () => {
  const rule = { chars: 100, over: "drop" as const, perSkill: 10, source: "test" };
  // each skill costs 10 + name (1) + path (1) = 12 before its description
  const skills = (descriptions: number[]) =>
    descriptions.map((length, index) => ({
      name: String.fromCharCode(97 + index),
      path: "p",
      description: "d".repeat(length),
    }));

  it("leaves a listing that fits alone", () => {
    expect(applyBudget(rule, skills([10, 20]))).toMatchObject({
      needed: 54,
      fits: true,
      shortened: [],
      dropped: [],
    });
  });

  it("cuts every longer description to the longest common length that fits", () => {
    // 3 × 12 = 36 fixed; 64 left: caps 50 and 40 and 5 → 5 + min(50,c) + min(40,c) ≤ 64 → c = 29
    const effect = applyBudget(rule, skills([50, 40, 5]));
    expect(effect).toMatchObject({ needed: 131, fits: false, dropped: [] });
    expect(effect.shortened).toEqual([
      { name: "a", from: 50, to: 29 },
      { name: "b", from: 40, to: 29 },
    ]);
  });

  it("drops skills from the end of the name order when names alone do not fit", () => {
    // 9 skills × 12 = 108 > 100: the last is left out, the rest listed by name only
    const effect = applyBudget(rule, skills(Array(9).fill(30)));
    expect(effect.dropped).toEqual(["i"]);
    expect(effect.shortened).toHaveLength(8);
    expect(effect.shortened.every((cut) => cut.to === 0)).toBe(true);
  });
});
