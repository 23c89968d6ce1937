import { parseSkillCommand, parseSuggestedSkills } from "@skillshelf/skills-loader";
import { describe, expect, it } from "vitest";

describe("parseSkillCommand", () => {
  it.each([
    ["/skill deploy", { name: "deploy", args: "" }],
    ["/skill deploy to staging --fast", { name: "deploy", args: "to staging --fast" }],
    ["  /skill:deploy  now  ", { name: "deploy", args: "now" }],
    ["/skill deploy\nmore lines\nhere", { name: "deploy", args: "more lines\nhere" }],
    ["/skill", undefined],
    ["/skill:", undefined],
    ["/skills deploy", undefined],
    ["please /skill deploy", undefined],
    ["/prompt deploy", undefined],
  ])("%j", (text, expected) => {
    expect(parseSkillCommand(text)).toEqual(expected);
  });
});

describe("parseSuggestedSkills", () => {
  it.each([
    ["Suggested skill: /skill deploy\nThen I will…", ["deploy"]],
    ["\n\nSuggested skill: /skill lint, /skill test, /skill lint\n", ["lint", "test"]],
    ["Suggested skills: /skill:lint, test", ["lint", "test"]],
    ["**Suggested skill:** `/skill deploy`", ["deploy"]],
    ["I could use Suggested skill: /skill deploy", []],
    ["Here is the answer.\nSuggested skill: /skill deploy", []],
    ["", []],
  ])("%j", (text, expected) => {
    expect(parseSuggestedSkills(text)).toEqual(expected);
  });

  it("drops names the host does not know", () => {
    expect(
      parseSuggestedSkills("Suggested skill: /skill real, /skill invented", {
        known: ["real"],
      }),
    ).toEqual(["real"]);
  });
});
