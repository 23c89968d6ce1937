import {
  fleetPrerequisites,
  parseFleetContract,
  templateVariables,
} from "@skillshelf/recipes-loader";
import { describe, expect, it } from "vitest";

const parse = (
  frontmatter: string,
  body = "Release {{version}} to {{ env }}; notify {{version}}.\n",
) => parseFleetContract(`---\n${frontmatter}\n---\n${body}`, { path: "/l/fleets/release.md" });
const problems = (result: ReturnType<typeof parse>) =>
  result.diagnostics.map((diagnostic) =>
    [diagnostic.code, diagnostic.details?.key ?? diagnostic.details?.step ?? ""].join(":"),
  );

const steps = (lines: string) => `version: 1\nname: release\nsteps:\n${lines}`;

describe("parseFleetContract", () => {
  it("reads every step kind and fills in the defaults", () => {
    const result = parse(
      `${steps(
        [
          "  - id: plan",
          "    agent: planner",
          "  - id: build",
          "    kind: command",
          "    command: build-release",
          "    dependencies: [plan]",
          "    scope: workspace",
          "    writes: [dist/]",
          "  - id: fix",
          "    kind: loop",
          "    maxAttempts: 3",
          "    check: {command: run-tests}",
          "    repair: {agent: fixer}",
          "    dependencies: [build]",
        ].join("\n"),
      )}\nmaxWorkers: 2\nonFailure: continue`,
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.fleet).toMatchObject({
      version: 1,
      name: "release",
      maxWorkers: 2,
      onFailure: "continue",
      variables: ["version", "env"],
      steps: [
        {
          id: "plan",
          kind: "agent",
          agent: "planner",
          dependencies: [],
          scope: "readonly",
          writes: [],
        },
        {
          id: "build",
          kind: "command",
          command: "build-release",
          dependencies: ["plan"],
          scope: "workspace",
          writes: ["dist/"],
        },
        {
          id: "fix",
          kind: "loop",
          maxAttempts: 3,
          check: { command: "run-tests" },
          repair: { agent: "fixer" },
          dependencies: ["build"],
        },
      ],
    });
    expect(parse(steps("  - id: only\n    agent: a")).fleet).toMatchObject({
      maxWorkers: 1,
      onFailure: "stop",
    });
  });

  it.each([
    [
      "an unknown top-level key",
      `${steps("  - id: a\n    agent: x")}\nparallel: true`,
      ["key_unknown:parallel"],
    ],
    [
      "an unknown step key",
      steps("  - id: a\n    agent: x\n    retries: 2"),
      ["key_unknown:steps[0].retries"],
    ],
    ["missing steps", "version: 1\nname: release", ["key_missing:steps"]],
    ["no steps", "version: 1\nname: release\nsteps: []", ["field_invalid:steps"]],
    ["a step without its agent", steps("  - id: a"), ["key_missing:steps[0].agent"]],
    [
      "an unknown step kind",
      steps("  - id: a\n    kind: shell\n    command: ls"),
      ["field_invalid:steps[0].kind"],
    ],
    [
      "a shell line as a command",
      steps("  - id: a\n    kind: command\n    command: rm -rf /"),
      ["field_invalid:steps[0].command"],
    ],
    [
      "a write outside the workspace",
      steps("  - id: a\n    agent: x\n    writes: [../etc]"),
      ["field_invalid:steps[0].writes[0]"],
    ],
    [
      "zero workers",
      `${steps("  - id: a\n    agent: x")}\nmaxWorkers: 0`,
      ["field_invalid:maxWorkers"],
    ],
    [
      "an unknown failure policy",
      `${steps("  - id: a\n    agent: x")}\nonFailure: retry`,
      ["field_invalid:onFailure"],
    ],
    [
      "a newer version",
      "version: 2\nname: release\nsteps:\n  - id: a\n    agent: x",
      ["version_unsupported:"],
    ],
    [
      "duplicate step ids",
      steps("  - id: a\n    agent: x\n  - id: a\n    agent: y"),
      ["step_duplicate:a"],
    ],
    [
      "an unknown dependency",
      steps("  - id: a\n    agent: x\n    dependencies: [ghost]"),
      ["step_dependency_unknown:a"],
    ],
    [
      "a step depending on itself",
      steps("  - id: a\n    agent: x\n    dependencies: [a]"),
      ["step_cycle:"],
    ],
  ])("refuses %s", (_name, frontmatter, expected) => {
    const result = parse(frontmatter);
    expect(result.fleet).toBeUndefined();
    expect(problems(result)).toEqual(expected);
  });

  it("names the cycle", () => {
    const result = parse(
      steps(
        [
          "  - id: a",
          "    agent: x",
          "    dependencies: [c]",
          "  - id: b",
          "    agent: x",
          "    dependencies: [a]",
          "  - id: c",
          "    agent: x",
          "    dependencies: [b]",
        ].join("\n"),
      ),
    );
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: "step_cycle", details: { cycle: ["a", "c", "b", "a"] } }),
    ]);
  });

  it("refuses an empty template", () => {
    expect(problems(parse(steps("  - id: a\n    agent: x"), "\n"))).toEqual(["body_empty:"]);
  });
});

describe("templateVariables", () => {
  it("lists each placeholder once, in order", () => {
    expect(templateVariables("{{a}} {{ b }} {{a}} {{not valid}} {{c.d}} {{ }}")).toEqual([
      "a",
      "b",
      "c.d",
    ]);
  });
});

describe("fleetPrerequisites", () => {
  it("lists agents and commands not defined beside the fleet, each once with the steps that need them", () => {
    const fleet = parse(
      steps(
        [
          "  - id: plan",
          "    agent: planner",
          "  - id: build",
          "    kind: command",
          "    command: build",
          "  - id: fix",
          "    kind: loop",
          "    maxAttempts: 2",
          "    check: {agent: verifier}",
          "    repair: {agent: planner}",
        ].join("\n"),
      ),
    ).fleet;
    if (fleet === undefined) throw new Error("fleet did not parse");
    expect(fleetPrerequisites(fleet, { agents: ["verifier"] })).toEqual([
      { type: "agent", identifier: "planner", steps: ["plan", "fix"] },
      { type: "command", identifier: "build", steps: ["build"] },
    ]);
    expect(
      fleetPrerequisites(fleet, { agents: ["planner", "verifier"], commands: ["build"] }),
    ).toEqual([]);
  });
});
