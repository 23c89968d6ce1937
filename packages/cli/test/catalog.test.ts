import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLES, exampleEnv, runMain } from "./_run.js";

const project = join(EXAMPLES, "project");
const home = join(EXAMPLES, "home");
const cli = async (...args: string[]) =>
  await runMain([...args, "--cwd", project], { env: exampleEnv() });

describe("skillshelf catalog", () => {
  it("lists only what the model may see", async () => {
    const result = await cli("catalog");
    expect(result.status).toBe(0);
    const names = [...result.stdout.matchAll(/^- ([a-z-]+) \(/gm)].map((match) => match[1]);
    expect(names).toEqual([
      "api-docs",
      "changelog",
      "code-review",
      "commit-messages",
      "deploy-staging",
      "incident-response",
      "smoke-tests",
      "sql-migrations",
    ]);
    expect(result.stdout).not.toMatch(/pdf-forms|flaky-test-triage|onboarding|release-notes/);
    expect(result.stdout).toContain("Suggested skill: /skill <name>");
  });

  it("narrows, pages and fits a budget, and prints the whole view as JSON", async () => {
    const view = JSON.parse(
      (await cli("catalog", "--json", "--budget", "1200", "--format", "xml")).stdout,
    );
    expect(Buffer.byteLength(view.text)).toBeLessThanOrEqual(1200);
    expect(view).toMatchObject({
      version: 1,
      total: 8,
      budgetLimited: true,
      filtered: false,
      matchMode: null,
    });
    expect(view.nextOffset).toBe(view.shown);
    expect(view.text.startsWith("<available_skills>")).toBe(true);
    const next = JSON.parse(
      (
        await cli(
          "catalog",
          "--json",
          "--budget",
          "1200",
          "--format",
          "xml",
          "--offset",
          String(view.nextOffset),
        )
      ).stdout,
    );
    expect(next.rows[0].name).not.toBe(view.rows[0].name);
    const query = JSON.parse((await cli("catalog", "--json", "--query", "staging deploy")).stdout);
    expect(query).toMatchObject({
      filtered: true,
      matchMode: "all",
      rows: [expect.objectContaining({ name: "deploy-staging", kind: "ready" })],
    });
  });

  it("prints nothing but the finding, and fails, when the budget carries no listing", async () => {
    const text = await cli("catalog", "--budget", "10");
    expect(text.status).toBe(1);
    expect(text.stdout).toBe("");
    expect(text.stderr).toMatch(/^warning catalog_budget_too_small\b/);
    const json = JSON.parse((await cli("catalog", "--budget", "10", "--json")).stdout);
    expect(json).toMatchObject({ text: "", fits: false, shown: 0 });
    expect(json.diagnostics.map((d: { code: string }) => d.code)).toContain(
      "catalog_budget_too_small",
    );
  });
});

describe("skillshelf show", () => {
  it("shows every candidate for a name, best first, and why each lost", async () => {
    const result = await cli("show", "commit-messages", "--json");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      version: 1,
      project: join(EXAMPLES, "project"),
      kind: "skill",
      name: "commit-messages",
      description:
        "Write clear commit messages in the Conventional Commits style. Use when committing, squashing or rewording commits.",
      candidates: [
        {
          path: join(home, ".config/skillshelf/skills/commit-messages/SKILL.md"),
          source: "skillshelf",
          scope: "user",
          precedence: 30,
          trusted: true,
          modelVisible: true,
          reason: null,
          explanation: null,
        },
        {
          path: join(home, ".claude/skills/commit-messages/SKILL.md"),
          source: "claude-code",
          scope: "user",
          precedence: 20,
          trusted: false,
          modelVisible: false,
          reason: "trusted",
          explanation: "a trusted copy wins over an untrusted one",
        },
      ],
      // the two copies say different things: one location each, and the name is flagged
      locations: [
        {
          path: join(home, ".config/skillshelf/skills/commit-messages/SKILL.md"),
          agent: null,
          scope: "user",
          linked: false,
          digest: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
        {
          path: join(home, ".claude/skills/commit-messages/SKILL.md"),
          agent: "claude-code",
          scope: "user",
          linked: false,
          digest: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
      ],
      drift: [expect.any(String), expect.any(String)],
    });
    expect((await cli("show", "code-review")).stdout).toMatchInlineSnapshot(`
      "code-review: Review a diff against this project's rules - public API stability, error codes and tests. Use before opening or approving a pull request.

      Candidates, best first:
        1. .skillshelf/skills/code-review/SKILL.md
           skillshelf/project, precedence 50, visible to the model; in use
        2. ~/.config/skillshelf/skills/code-review/SKILL.md
           skillshelf/user, precedence 30, visible to the model; lost: the winner's place has higher precedence

      Locations: the copies drifted apart (2 different contents):
        59996453a32e9ebf2c46971b812b3cbb254b87b1948ecce7994e49858dad1acf
          .skillshelf/skills/code-review/SKILL.md (skillshelf, project)
        a56f30adf0511ec7ac79c651c87cea463e4f993be4f8a0da4f71254e472206cc
          ~/.config/skillshelf/skills/code-review/SKILL.md (skillshelf, user)
      "
    `);
  });

  it("shows a skill without rivals, and suggests names for an unknown one", async () => {
    expect(JSON.parse((await cli("show", "pdf-forms", "--json")).stdout).candidates).toHaveLength(
      1,
    );
    const unknown = await cli("show", "deploy");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe(
      'skillshelf: resource_unknown: no skill is named "deploy"\n  hint: similar: deploy-staging, smoke-tests\n',
    );
    const json = await cli("show", "deploy", "--json");
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      kind: "skill",
      name: "deploy",
      candidates: [],
      diagnostics: [{ code: "resource_unknown", hint: "similar: deploy-staging, smoke-tests" }],
    });
    expect((await cli("show")).status).toBe(2);
  });
});
