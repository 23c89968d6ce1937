import { CODES } from "@skillshelf/core";
import { loadAgentRecipes, loadFleetContracts } from "@skillshelf/recipes-loader";
import { link, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

describe("the codes the recipe loaders report (issue 30, item 8)", () => {
  it("are their own, the resolver's and core's only, over hostile trees", () => {
    const hostile = testdir({
      "agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews.\n---\nReview.\n",
      "agents/team/reviewer.md": "---\nname: reviewer\ndescription: Again.\n---\nReview.\n",
      "agents/bad.md": "---\nname: [unclosed\n---\n",
      "agents/escape.md": link("/etc/hostname"),
      "fleets/broken.yaml": "name: broken\nsteps: [\n",
      "fleets/empty.yaml": "",
    });
    const root = (folder: string) => [
      {
        path: `${hostile}/${folder}`,
        scope: "user" as const,
        source: "skillshelf",
        origin: folder,
        precedence: 30,
        trust: "trusted" as const,
      },
    ];
    const environment = { cwd: hostile, home: hostile, env: {} };
    const diagnostics = [
      ...loadAgentRecipes({ ...environment, roots: root("agents") }).diagnostics,
      ...loadFleetContracts({ ...environment, roots: root("fleets") }).diagnostics,
    ];
    expect(diagnostics.length).toBeGreaterThanOrEqual(2);
    for (const diagnostic of diagnostics)
      expect(["recipes-loader", "collision", "core"], diagnostic.code).toContain(
        CODES[diagnostic.code].owner,
      );
  });
});
