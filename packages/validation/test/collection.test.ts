import { join } from "node:path";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { validateCollection } from "@skillshelf/validation";
import { describe, expect, it } from "vitest";

describe("validateCollection", () => {
  it("validates a skill install leaves out for what its SKILL.md says, so its errors say what to fix", () => {
    const dir = testdir({
      "skills/good/SKILL.md": skillFile("good", "Does good work."),
      "skills/silent/SKILL.md": "---\nname: silent\n---\n# silent\n",
    });
    const checked = validateCollection(dir, { environment: { home: "/nonexistent", cwd: dir } });
    expect(checked?.valid).toBe(false);
    expect(checked?.resources.map((resource) => resource.name)).toEqual(["good"]);
    const file = join(dir, "skills/silent/SKILL.md");
    expect(
      checked?.diagnostics.map((diagnostic) => [
        diagnostic.severity,
        diagnostic.code,
        diagnostic.path,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ["warning", "collection_skill_invalid", expect.stringContaining("silent")],
        ["error", "description_missing", file],
      ]),
    );
  });

  it("is valid when every skill it finds loads", () => {
    const dir = testdir({
      "alpha/SKILL.md": skillFile("alpha", "First."),
      "beta/SKILL.md": skillFile("beta", "Second."),
    });
    const checked = validateCollection(dir, { environment: { home: "/nonexistent", cwd: dir } });
    expect(checked?.valid).toBe(true);
    expect(checked?.resources.map((resource) => resource.name).sort()).toEqual(["alpha", "beta"]);
  });
});
