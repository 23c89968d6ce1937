import { join } from "node:path";
import { createResources } from "@skillshelf/resources";
import { testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { plainListing } from "../src/listings/rows.js";
import { EXAMPLES, exampleEnv, runMain } from "./_run.js";

const project = join(EXAMPLES, "project");
const home = join(EXAMPLES, "home");
const listJson = async (kind: string) =>
  JSON.parse(
    (await runMain(["list", "--kind", kind, "--json", "--cwd", project], { env: exampleEnv() }))
      .stdout,
  );

describe("skillshelf list --kind", () => {
  it("prints prompt templates in the documented shape", async () => {
    const output = await listJson("prompts");
    expect(Object.keys(output)).toEqual(["version", "project", "prompts", "diagnostics"]);
    expect(output.project).toBe(project);
    for (const row of output.prompts) {
      expect(Object.keys(row)).toEqual([
        "name",
        "description",
        "path",
        "scope",
        "source",
        "trusted",
        "unavailable",
        "argumentHint",
        "displayOnly",
        "shadows",
      ]);
    }
    expect(
      output.prompts.map(
        (row: {
          name: string;
          trusted: boolean;
          displayOnly: boolean;
          argumentHint: string | null;
        }) => [row.name, row.trusted, row.displayOnly, row.argumentHint],
      ),
    ).toEqual([
      ["deploy-check", false, false, "[environment] | --dry-run"],
      ["git:commit", true, false, null],
      ["help", true, true, null],
      ["review", true, false, "<file> [focus]"],
    ]);
    expect(
      output.diagnostics.map((diagnostic: { code: string; path: string }) => [
        diagnostic.code,
        diagnostic.path,
      ]),
    ).toEqual([["frontmatter_recovered", join(project, ".claude/commands/deploy-check.md")]]);
  });

  it("prints agent recipes and fleet contracts with their own fields", async () => {
    const agents = await listJson("agent");
    expect(
      agents.agents.map(
        (row: { name: string; source: string; tools: string[]; skills: string[] }) => [
          row.name,
          row.source,
          row.tools,
          row.skills,
        ],
      ),
    ).toEqual([
      ["planner", "skillshelf", ["Read", "Grep"], ["deploy-staging"]],
      ["reviewer", "skillshelf", ["Read", "Grep", "Bash"], ["code-review"]],
      ["test-runner", "claude-code", ["Bash", "Read"], []],
    ]);
    expect(agents.diagnostics).toEqual([]);
    const fleets = await listJson("fleets");
    expect(fleets.fleets).toEqual([
      {
        name: "release",
        description: "Plan, build, test and review a release.",
        path: join(project, ".skillshelf/fleets/release.md"),
        scope: "project",
        source: "skillshelf",
        trusted: true,
        steps: ["plan", "build", "test", "review"],
        variables: ["version", "project"],
        prerequisites: [
          { type: "command", identifier: "build-release", steps: ["build"] },
          { type: "command", identifier: "run-tests", steps: ["test"] },
          { type: "agent", identifier: "reviewer", steps: ["review"] },
        ],
        shadows: [],
      },
    ]);
  });

  it("prints every kind with --kind all, each under its own key, diagnostics merged", async () => {
    const output = await listJson("all");
    expect(Object.keys(output)).toEqual([
      "version",
      "project",
      "skills",
      "prompts",
      "agents",
      "fleets",
      "packages",
      "diagnostics",
    ]);
    expect([
      output.skills.length,
      output.prompts.length,
      output.agents.length,
      output.fleets.length,
      output.packages.length,
    ]).toEqual([12, 4, 3, 1, 0]);
    const text = (await runMain(["list", "--kind", "all", "--cwd", project], { env: exampleEnv() }))
      .stdout;
    expect(text.split("\n").filter((line) => /^[A-Z][a-z]/.test(line))).toEqual([
      "Skills",
      "Prompt templates",
      "Agent recipes",
      "Fleet contracts",
      "Installed packages",
      "No installed packages found.",
    ]);
  });
});

describe("skillshelf prompt", () => {
  const prompt = async (...args: string[]) =>
    await runMain(["prompt", "--cwd", project, ...args], { env: exampleEnv() });

  it.each([
    [
      ["review", "src/app.ts", "security"],
      0,
      "Review `src/app.ts` with a focus on security.\nList each problem with its line number, then suggest a fix.\n",
    ],
    [
      ["/review", "src/app.ts"],
      0,
      "Review `src/app.ts` with a focus on correctness and tests.\nList each problem with its line number, then suggest a fix.\n",
    ],
    [
      ["git:commit", "keep it short", "--no-body"],
      0,
      "Read the staged diff and write a Conventional Commits message for it.\nExtra instructions from the user, as typed: keep it short --no-body\n",
    ],
    [
      ["help", "ignored"],
      0,
      "/review <file> [focus]   review one file\n/git:commit [notes]      write a commit message\n/help                    this card\n",
    ],
    [
      ["--allow-untrusted", "deploy-check", "prod"],
      0,
      "Check the health of the prod deploy: error rates, latency, and the last five log lines.\n",
    ],
  ])("%j expands", async (args, status, stdout) => {
    const result = await prompt(...args);
    expect(result.status).toBe(status);
    expect(result.stdout).toBe(stdout);
  });

  it.each([
    [
      ["deploy-check", "prod"],
      1,
      /^skillshelf: prompt_untrusted: .*\n {2}hint: pass --allow-untrusted/,
    ],
    [["nope"], 1, /^skillshelf: prompt_unknown: /],
    [[], 2, /^skillshelf: usage_missing_argument: /],
    [["--loud", "review"], 2, /^skillshelf: usage_unknown_option: --loud /],
  ])("%j fails with a reason", async (args, status, stderr) => {
    const result = await prompt(...args);
    expect(result.status).toBe(status);
    expect(result.stderr).toMatch(stderr);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("prints JSON, refusals included", async () => {
    expect(JSON.parse((await prompt("--json", "help")).stdout)).toEqual({
      version: 1,
      project,
      kind: "display",
      name: "help",
      text: "/review <file> [focus]   review one file\n/git:commit [notes]      write a commit message\n/help                    this card",
      input: "",
    });
    const refused = await prompt("--json", "deploy-check");
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ kind: "refused", code: "prompt_untrusted" });
  });

  it("says why an unavailable template cannot run", async () => {
    const dir = testdir({ ".skillshelf/prompts/binary.md": Buffer.from([0x2d, 0x00]) });
    const result = await runMain(["prompt", "--cwd", dir, "binary"], { env: { HOME: home } });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^skillshelf: prompt_unavailable: prompt template \/binary cannot run: /,
    );
  });
});

describe("skillshelf validate on other kinds", () => {
  const dir = testdir({
    "prompts/ok.md": "Say $1.\n",
    "prompts/bad-flag.md": "---\ndisplay-only: yes\n---\nBody\n",
    "agents/good.md": "---\nname: good\ndescription: A good agent.\n---\nPersona.\n",
    "agents/bad.md": "---\nname: bad\ndescription: d\nmood: odd\n---\nPersona.\n",
    "fleets/ok.md": "---\nversion: 1\nname: ok\nsteps:\n  - id: a\n    agent: good\n---\nGo.\n",
    "fleets/loop.md":
      "---\nversion: 1\nname: loop\nsteps:\n  - id: a\n    agent: x\n    dependencies: [a]\n---\nGo.\n",
    "notes/card.md": "Just text\n",
  });
  const validate = async (...args: string[]) => {
    const result = await runMain(["validate", "--json", ...args], {
      cwd: dir,
      env: { HOME: home },
    });
    return { status: result.status, output: JSON.parse(result.stdout) };
  };
  const summary = (output: {
    results: { kind: string; valid: boolean; names: string[]; diagnostics: { code: string }[] }[];
  }) =>
    output.results.map((result) => [
      result.kind,
      result.valid,
      result.names,
      result.diagnostics.map((diagnostic) => diagnostic.code),
    ]);

  it.each([
    [["prompts/ok.md"], 0, [["prompt", true, ["ok"], []]]],
    [["prompts/bad-flag.md"], 0, [["prompt", true, ["bad-flag"], ["field_invalid"]]]],
    [["--strict", "prompts/bad-flag.md"], 1, [["prompt", false, ["bad-flag"], ["field_invalid"]]]],
    [["agents/good.md"], 0, [["agent", true, ["good"], []]]],
    [["agents/bad.md"], 1, [["agent", false, [], ["key_unknown"]]]],
    [["agents"], 1, [["agent", false, ["good"], ["key_unknown"]]]],
    [["fleets/ok.md"], 0, [["fleet", true, ["ok"], []]]],
    [["fleets/loop.md"], 1, [["fleet", false, [], ["step_cycle"]]]],
    [["notes/card.md"], 0, [["prompt", true, ["card"], []]]],
    [["--kind", "agent", "notes/card.md"], 1, [["agent", false, [], ["frontmatter_missing"]]]],
    [["prompts/absent.md"], 1, [["prompt", false, [], ["path_missing"]]]],
  ])("%j", async (args, status, expected) => {
    const { status: actual, output } = await validate(...args);
    expect(actual).toBe(status);
    expect(summary(output)).toEqual(expected);
  });

  it("refuses an unknown --kind", async () => {
    expect(
      (await runMain(["validate", "--kind", "theme", "x"], { cwd: dir, env: { HOME: home } }))
        .status,
    ).toBe(2);
  });
});

describe("a kind without a listing of its own", () => {
  it("lists what every kind has: the same rows, by the same fields, as its own listing", async () => {
    const resources = createResources({
      environment: { home, configDir: join(home, ".config", "skillshelf"), env: {} },
    });
    const plain = plainListing(resources.read(project), "fleet", true);
    expect(plain.key).toBe("fleets");
    const own = (await listJson("fleets")).fleets as Record<string, unknown>[];
    expect(own.length).toBeGreaterThan(0);
    expect(plain.rows).toEqual(
      own.map(({ name, description, path, scope, source, trusted, shadows }) => ({
        name,
        description,
        path,
        scope,
        source,
        trusted,
        shadows,
      })),
    );
    expect(plain.text({ cwd: project, home }, (_style, text) => text)).toMatch(
      /^NAME +SOURCE +SCOPE +TRUST +PATH\n/,
    );
  });
});
