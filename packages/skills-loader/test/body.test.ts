import { writeFileSync } from "node:fs";
import { loadSkills, readSkillBody } from "@skillshelf/skills-loader";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

describe("readSkillBody", () => {
  it("reads the body of a loaded skill, and refuses one that changed since", () => {
    const dir = testdir({ "a/SKILL.md": skillFile("a", "First.", "", "Do the thing.\n") });
    const [skill] = loadSkills({
      cwd: dir,
      home: "/nonexistent",
      env: {},
      disableDiscovery: true,
      explicitSkillPaths: ["a"],
    }).items;
    if (skill === undefined) throw new Error("not loaded");
    expect(skill.body).toBeUndefined();
    expect(readSkillBody(skill)).toBe("Do the thing.\n");
    writeFileSync(skill.path, skillFile("a", "First.", "", "Do something else.\n"));
    expect(() => readSkillBody(skill)).toThrow(
      expect.objectContaining({ code: "skill_changed", path: skill.path }),
    );
  });
});
