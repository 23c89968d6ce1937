import { join } from "node:path";
import { resolveEnvironment } from "@skillshelf/core";
import {
  defaultFleetRoots,
  defaultRecipeRoots,
  loadAgentRecipes,
  loadFleetContracts,
} from "@skillshelf/recipes-loader";
import { link, testdir, testEnvironment } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

const recipe = (name: string, extra = "") =>
  `---\nname: ${name}\ndescription: The ${name} agent.\n${extra}---\nYou are ${name}.\n`;
const fleet = (name: string, stepsYaml: string) =>
  `---\nversion: 1\nname: ${name}\nsteps:\n${stepsYaml}---\nRun {{target}}.\n`;

describe("default roots", () => {
  it("reads Claude Code's sub-agent folders as discovery-only, and fleets only from our libraries", () => {
    const environment = resolveEnvironment({ cwd: "/p", home: "/h", env: {} });
    expect(
      defaultRecipeRoots(environment).map((root) => [root.path, root.origin, root.trust]),
    ).toEqual([
      ["/h/.claude/agents", "claude-code-user", "untrusted"],
      ["/h/.config/skillshelf/agents", "user", "trusted"],
      ["/p/.claude/agents", "claude-code-project", "untrusted"],
      ["/p/.skillshelf/agents", "project", "trusted"],
    ]);
    expect(defaultFleetRoots(environment).map((root) => root.path)).toEqual([
      "/h/.config/skillshelf/fleets",
      "/p/.skillshelf/fleets",
    ]);
  });
});

describe("loadAgentRecipes", () => {
  it("loads the recipes directly in each folder, leaves broken ones out, and resolves clashes", () => {
    const environment = testEnvironment({
      home: {
        ".config/skillshelf/agents/reviewer.md": recipe(
          "reviewer",
          "skills: [code-review, missing-skill]\n",
        ),
        ".config/skillshelf/agents/nested/deep.md": recipe("deep"),
        ".config/skillshelf/agents/broken.md":
          "---\nname: broken\ndescription: d\nmood: odd\n---\nPersona.\n",
        ".claude/agents/reviewer.md": recipe("reviewer"),
        ".claude/agents/helper.md": recipe("helper", "tools: Read, Grep\ncolor: green\n"),
      },
      project: { ".skillshelf/agents/planner.md": recipe("planner") },
    });
    const result = loadAgentRecipes({ ...environment, skillNames: ["code-review"] });
    expect(result.items.map((item) => [item.name, item.origin, item.trusted])).toEqual([
      ["helper", "claude-code-user", false],
      ["planner", "project", true],
      ["reviewer", "user", true],
    ]);
    expect(result.items[0]?.tools).toEqual(["Read", "Grep"]);
    const library = join(environment.home, ".config/skillshelf/agents");
    expect(
      result.diagnostics.map((diagnostic) => [
        diagnostic.code,
        diagnostic.path,
        diagnostic.details?.key ?? diagnostic.details?.skill,
      ]),
    ).toEqual([
      ["collision", join(environment.home, ".claude/agents/reviewer.md"), undefined],
      ["key_unknown", join(library, "broken.md"), "mood"],
      ["skill_unresolved", join(library, "reviewer.md"), "missing-skill"],
    ]);
  });

  it("refuses a recipe linked from outside its root", () => {
    const outside = testdir({ "evil.md": recipe("evil") });
    const project = testdir({ ".skillshelf/agents/evil.md": link(join(outside, "evil.md")) });
    const result = loadAgentRecipes({ cwd: project, home: testdir(), env: {} });
    expect(result.items).toEqual([]);
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["symlink_escape"]);
  });
});

describe("loadFleetContracts", () => {
  it("lists what each fleet needs that is not defined beside it", () => {
    const environment = testEnvironment({
      project: {
        ".skillshelf/agents/planner.md": recipe("planner"),
        ".skillshelf/fleets/release.md": fleet(
          "release",
          "  - id: plan\n    agent: planner\n  - id: review\n    agent: reviewer\n    dependencies: [plan]\n  - id: ship\n    kind: command\n    command: publish\n    dependencies: [review]\n",
        ),
        ".skillshelf/fleets/loop.md": fleet(
          "loop",
          "  - id: a\n    agent: x\n    dependencies: [b]\n  - id: b\n    agent: x\n    dependencies: [a]\n",
        ),
      },
    });
    const result = loadFleetContracts(environment);
    expect(
      result.items.map((item) => [item.name, item.scope, item.variables, item.prerequisites]),
    ).toEqual([
      [
        "release",
        "project",
        ["target"],
        [
          { type: "agent", identifier: "reviewer", steps: ["review"] },
          { type: "command", identifier: "publish", steps: ["ship"] },
        ],
      ],
    ]);
    expect(
      result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.details?.cycle]),
    ).toEqual([["step_cycle", ["a", "b", "a"]]]);
  });
});
