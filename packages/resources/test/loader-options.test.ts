import { isSkillshelfError } from "@skillshelf/core";
import { loadPromptTemplates } from "@skillshelf/prompts-loader";
import { loadAgentRecipes, loadFleetContracts } from "@skillshelf/recipes-loader";
import { loadSkills } from "@skillshelf/skills-loader";
import { skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

// Issue 24, item 8: a JavaScript caller's mistake is a coded error naming the option.

/** The option a load refuses, or `undefined` when it loads. */
function refusedOption(load: () => unknown): unknown {
  try {
    load();
    return undefined;
  } catch (error) {
    if (!isSkillshelfError(error)) throw error;
    expect(error.code).toBe("option_invalid");
    return error.details?.option;
  }
}

describe("loader options", () => {
  const dir = testdir({ "pdf/SKILL.md": skillFile("pdf", "Read PDFs.") });
  const root = {
    path: dir,
    scope: "user",
    source: "skillshelf",
    origin: "user",
    precedence: 30,
    trust: "trusted",
  };
  const { source: _dropped, ...noSource } = root;
  const loaders = {
    loadSkills,
    loadPromptTemplates,
    loadAgentRecipes,
    loadFleetContracts,
  } as const;

  it.each(Object.keys(loaders))("%s names a root without source, not a TypeError", (name) => {
    const load = loaders[name as keyof typeof loaders] as (input: unknown) => unknown;
    expect(refusedOption(() => load({ roots: [root, noSource] }))).toBe("roots[1].source");
    expect(refusedOption(() => load({ roots: [{ ...root, scope: "global" }] }))).toBe(
      "roots[0].scope",
    );
    expect(refusedOption(() => load({ roots: [{ ...root, precedence: "high" }] }))).toBe(
      "roots[0].precedence",
    );
    expect(refusedOption(() => load({ roots: root }))).toBe("roots");
    expect(refusedOption(() => load({ cwd: 5 }))).toBe("cwd");
  });

  it("checks the lists and flags loadSkills takes", () => {
    expect(refusedOption(() => loadSkills({ explicitSkillPaths: dir as never }))).toBe(
      "explicitSkillPaths",
    );
    expect(refusedOption(() => loadSkills({ toolNames: [1] as never }))).toBe("toolNames");
    expect(refusedOption(() => loadSkills({ trustImports: "yes" as never }))).toBe("trustImports");
    // a sound call loads
    expect(refusedOption(() => loadSkills({ roots: [root as never] }))).toBeUndefined();
    expect(loadSkills({ roots: [root as never] }).items.map((skill) => skill.name)).toEqual([
      "pdf",
    ]);
  });
});
