import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PromptTemplate } from "@skillshelf/prompts-loader";
import { loadSkills } from "@skillshelf/skills-loader";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { createFileCache } from "../src/_files.js";
import { buildListing } from "../src/_listing.js";
import { createFolderWatch } from "../src/_watch.js";

describe("a listing built again over the same library", () => {
  it("is the one before itself while nothing changed, and a new one once a skill or template did", () => {
    const dir = testdir({
      "alpha/SKILL.md": skillFile("alpha", "The first."),
      "beta/SKILL.md": skillFile("beta", "The second."),
    });
    const skills = () =>
      loadSkills({
        cwd: dir,
        home: "/nonexistent",
        env: {},
        disableDiscovery: true,
        explicitSkillPaths: ["alpha", "beta"],
      }).items;
    const watch = createFolderWatch();
    const files = { cache: createFileCache(), watch };
    try {
      const first = buildListing(skills(), [], files, 1);
      expect(first.skills.map((one) => one.entry.uri)).toEqual([
        "skill://alpha/SKILL.md",
        "skill://beta/SKILL.md",
      ]);
      expect(buildListing(skills(), [], files, 2, first)).toBe(first);
      // a template more: the skills are kept, the listing is new
      const template = { name: "review", hash: "h", description: "Review." } as PromptTemplate;
      const withTemplate = buildListing(skills(), [template], files, 3, first);
      expect(withTemplate).not.toBe(first);
      expect(withTemplate.fingerprint).not.toBe(first.fingerprint);
      expect(withTemplate.skills).toEqual(first.skills);
      // a skill file rewritten: that skill is looked at again
      writeFileSync(join(dir, "beta", "SKILL.md"), skillFile("beta", "The second, changed."));
      const changed = buildListing(skills(), [], files, 4, first);
      expect(changed).not.toBe(first);
      expect(changed.fingerprint).not.toBe(first.fingerprint);
      expect(changed.generation).toBe(4);
    } finally {
      watch.close();
    }
  });
});
