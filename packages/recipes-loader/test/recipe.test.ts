import { parseAgentRecipe } from "@skillshelf/recipes-loader";
import { describe, expect, it } from "vitest";

const parse = (frontmatter: string, body = "You review code.\n", id = "reviewer") =>
  parseAgentRecipe(`---\n${frontmatter}\n---\n${body}`, { path: "/a/agents/reviewer.md", id });
const problems = (result: ReturnType<typeof parse>) =>
  result.diagnostics.map((diagnostic) =>
    [diagnostic.severity, diagnostic.code, diagnostic.details?.key]
      .filter((part) => part !== undefined)
      .join(":"),
  );

describe("parseAgentRecipe", () => {
  it("reads a complete recipe", () => {
    const result = parse(
      [
        "name: reviewer",
        "description: Reviews a diff for bugs",
        "tools: [Read, Grep]",
        "model: sonnet",
        "skills: [code-review]",
        "version: 1",
        "category: quality",
        "budget: {toolCalls: 40, readReserve: 10, synthesis: true}",
        "resultContract: {kind: review-report}",
      ].join("\n"),
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.recipe).toEqual({
      name: "reviewer",
      description: "Reviews a diff for bugs",
      tools: ["Read", "Grep"],
      model: "sonnet",
      skills: ["code-review"],
      version: 1,
      category: "quality",
      budget: { toolCalls: 40, readReserve: 10, synthesis: true },
      resultContract: { kind: "review-report" },
      persona: "You review code.\n",
      frontmatter: expect.any(Object),
    });
  });

  it("reads a Claude Code sub-agent file as it is written", () => {
    const result = parse(
      "name: reviewer\ndescription: Use after edits: reviews them\ntools: Read, Grep, Bash\nmodel: inherit\ncolor: blue\npermissionMode: plan",
    );
    expect(result.recipe).toMatchObject({
      tools: ["Read", "Grep", "Bash"],
      model: "inherit",
      skills: [],
    });
    expect(problems(result)).toEqual(["warning:frontmatter_recovered"]);
  });

  it.each([
    [
      "an unknown key",
      "name: reviewer\ndescription: d\nmood: cheerful",
      ["error:key_unknown:mood"],
    ],
    [
      "an unknown key in budget",
      "name: reviewer\ndescription: d\nbudget: {toolCalls: 3, cost: 1}",
      ["error:key_unknown:budget.cost"],
    ],
    ["a missing name", "description: d", ["error:key_missing:name"]],
    ["a missing description", "name: reviewer", ["error:key_missing:description"]],
    [
      "a blank description",
      "name: reviewer\ndescription: '  '",
      ["error:field_invalid:description"],
    ],
    ["an upper-case name", "name: Reviewer\ndescription: d", ["error:field_invalid:name"]],
    [
      "tools that are not names",
      "name: reviewer\ndescription: d\ntools: {Read: true}",
      ["error:field_invalid:tools"],
    ],
    [
      "an unsupported version",
      "name: reviewer\ndescription: d\nversion: 2",
      ["error:field_invalid:version"],
    ],
    [
      "a reserve as large as the budget",
      "name: reviewer\ndescription: d\nbudget: {toolCalls: 3, readReserve: 3}",
      ["error:field_invalid:budget.readReserve"],
    ],
    [
      "a result contract without a kind",
      "name: reviewer\ndescription: d\nresultContract: {path: out.md}",
      ["error:key_missing:resultContract.kind"],
    ],
  ])("refuses %s, naming the key", (_name, frontmatter, expected) => {
    const result = parse(frontmatter);
    expect(result.recipe).toBeUndefined();
    expect(problems(result)).toEqual(expected);
  });

  it("refuses an empty persona and missing frontmatter", () => {
    expect(problems(parse("name: reviewer\ndescription: d", "  \n"))).toEqual(["error:body_empty"]);
    expect(problems(parseAgentRecipe("just a persona", { path: "/x.md", id: "x" }))).toEqual([
      "error:frontmatter_missing",
    ]);
  });

  it("warns when the name differs from the file name", () => {
    const result = parse("name: other\ndescription: d");
    expect(result.recipe?.name).toBe("other");
    expect(problems(result)).toEqual(["warning:name_mismatch"]);
  });
});
