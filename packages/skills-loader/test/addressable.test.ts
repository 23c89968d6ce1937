import { isAddressableName, isModelVisible, loadSkills } from "@skillshelf/skills-loader";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

function loadFolder(folder: string, name: string) {
  const dir = testdir({ [`${folder}/SKILL.md`]: skillFile(name, "A skill.") });
  return loadSkills({
    cwd: dir,
    home: "/nonexistent",
    env: {},
    explicitSkillPaths: [folder],
    disableDiscovery: true,
  });
}

describe("names /skill <name> can address", () => {
  it.each([
    ["deploy", true],
    ["pdf-forms", true],
    ["Clockify Automation", false],
    ["tab\tname", false],
    ["bell\u0007", false],
    ["", false],
  ])("%j is addressable: %s", (name, expected) => {
    expect(isAddressableName(name)).toBe(expected);
  });

  it("falls back to the folder name when only the frontmatter name cannot be typed", () => {
    const result = loadFolder("clockify-automation", "Clockify Automation");
    expect(
      result.items.map((skill) => [skill.name, skill.addressable, isModelVisible(skill)]),
    ).toEqual([["clockify-automation", true, true]]);
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toContain(
      "skill_name_unaddressable_fallback",
    );
  });

  it("lists a skill neither name can address, but never offers it to a model", () => {
    const result = loadFolder("Clockify Automation", "Clockify Automation");
    expect(
      result.items.map((skill) => [skill.name, skill.addressable, isModelVisible(skill)]),
    ).toEqual([["Clockify Automation", false, false]]);
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toContain(
      "skill_name_unaddressable",
    );
  });
});
