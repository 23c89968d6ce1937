import { join } from "node:path";
import { AGENTS } from "@skillshelf/core";
import { skillFile, writeTree } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { changeSandbox } from "./_sandbox.js";

/** `count` skills in the user's Claude Code folder, each with a description of `length` characters. */
function claudeSkills(home: string, count: number, length: number): void {
  for (let index = 0; index < count; index += 1) {
    const name = `skill-${String(index).padStart(3, "0")}`;
    writeTree(join(home, ".claude", "skills", name), {
      "SKILL.md": skillFile(name, `Use for ${name}. ${"x".repeat(length)}`),
    });
  }
}

describe("skillshelf explain", () => {
  it("passes --check when every agent's listing fits, and says why each skill loads", async () => {
    const box = changeSandbox();
    claudeSkills(box.home, 3, 40);
    const run = await box.run("explain", "--check", "--json");
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.check).toEqual({ minDescription: 100, ok: true, failures: [] });
    const claude = result.agents.find((agent: { agent: string }) => agent.agent === "claude-code");
    expect(claude.loaded.map((skill: { name: string }) => skill.name)).toEqual([
      "skill-000",
      "skill-001",
      "skill-002",
    ]);
    expect(claude.budget).toMatchObject({ fits: true, dropped: [], shortened: [] });
    expect((await box.run("explain", "--agent", "claude-code")).stdout).toContain("it fits");
  });

  it("fails --check when a budget would cut descriptions past the threshold or drop skills", async () => {
    const box = changeSandbox();
    claudeSkills(box.home, 120, 200);
    const run = await box.run("explain", "--check", "--agent", "claude-code", "--json");
    expect(run.status).toBe(1);
    const { check, agents } = JSON.parse(run.stdout);
    expect(check.ok).toBe(false);
    const codes = new Set(check.failures.map((failure: { code: string }) => failure.code));
    expect(codes).toEqual(new Set(["budget_drops_skill", "budget_shortens_description"]));
    // the budget's cuts are exactly what the check names
    const [claude] = agents;
    expect(
      check.failures
        .filter((f: { code: string }) => f.code === "budget_drops_skill")
        .map((f: { name: string }) => f.name),
    ).toEqual(claude.budget.dropped);
    expect(claude.budget.dropped.at(-1)).toBe("skill-119");
    // a looser threshold does not excuse a dropped skill
    expect(
      (await box.run("explain", "--check", "--agent", "claude-code", "--min-description", "0"))
        .status,
    ).toBe(1);
  });

  it("passes --check with a threshold the cut descriptions still meet", async () => {
    const box = changeSandbox();
    claudeSkills(box.home, 40, 300);
    const json = JSON.parse((await box.run("explain", "--agent", "claude-code", "--json")).stdout);
    const [claude] = json.agents;
    expect(claude.budget.dropped).toEqual([]);
    const cut = claude.budget.shortened[0].to as number;
    expect(cut).toBeGreaterThan(0);
    const check = async (min: number) =>
      (
        await box.run(
          "explain",
          "--check",
          "--agent",
          "claude-code",
          "--min-description",
          String(min),
        )
      ).status;
    expect(await check(cut)).toBe(0);
    expect(await check(cut + 1)).toBe(1);
  });

  it("renders what an agent would list, in its format and within its budget (catalog --agent)", async () => {
    const box = changeSandbox();
    claudeSkills(box.home, 2, 20);
    const claude = await box.run("catalog", "--agent", "claude-code");
    expect(claude.status, claude.stderr).toBe(0);
    expect(claude.stdout).toContain("<available_skills>");
    expect(claude.stdout).toContain("skill-001");
    // Codex does not read ~/.claude/skills
    expect((await box.run("catalog", "--agent", "codex")).stdout).not.toContain("skill-001");
    expect((await box.run("catalog", "--agent", "nobody")).status).toBe(2);
  });
});

describe("explain's sources (issue 23, item 13)", () => {
  it("cite each agent's public docs, never a file outside the repository", async () => {
    const box = changeSandbox();
    const { agents } = JSON.parse((await box.run("explain", "--all", "--json")).stdout) as {
      agents: { agent: string; source: string; budget?: { rule: { source: string } } }[];
    };
    expect(agents.length).toBe(AGENTS.length);
    for (const agent of agents)
      for (const source of [agent.source, agent.budget?.rule.source ?? agent.source]) {
        expect(source, agent.agent).toMatch(/^https:\/\//);
        expect(source, agent.agent).not.toMatch(/shared\/|reference\/|ecosystem/);
      }
    expect((await box.run("explain", "--agent", "codex")).stdout).toContain(
      "source: https://developers.openai.com/codex/skills",
    );
  });
});

describe("explain over the whole agent table (issue 25, item 3)", () => {
  it("shows the agents with a skill folder here, every one with --all, one by --agent or an alias", async () => {
    const box = changeSandbox();
    claudeSkills(box.home, 1, 10);
    writeTree(join(box.cwd, ".cursor", "skills", "pdf"), { "SKILL.md": skillFile("pdf", "PDFs.") });
    const ids = async (...args: string[]) =>
      (
        JSON.parse((await box.run("explain", "--json", ...args)).stdout) as {
          agents: { agent: string }[];
        }
      ).agents.map((agent) => agent.agent);
    // every agent reading ~/.claude/skills or .cursor/skills, and no other
    const here = await ids();
    expect(here).toEqual(expect.arrayContaining(["claude-code", "cursor", "opencode", "amp"]));
    expect(here).not.toContain("grok");
    expect(await ids("--all")).toEqual(AGENTS.map((agent) => agent.id));
    expect(await ids("--agent", "github-copilot")).toEqual(["copilot"]);
    const text = await box.run("explain");
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(`${AGENTS.length - here.length} other agents`);
  });
});
