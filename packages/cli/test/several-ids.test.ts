import { existsSync } from "node:fs";
import { join } from "node:path";
import { packageTree, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { changeSandbox, codesOf } from "./_sandbox.js";

// Issue 31, item 0 (first part): remove, enable, disable and rollback take several ids, planned
// and committed as one reviewed plan.

async function installed(ids: readonly { id: string; requires?: string[] }[]) {
  const box = changeSandbox();
  for (const { id, requires } of ids) {
    const dir = testdir(packageTree({ id, ...(requires === undefined ? {} : { requires }) }));
    const run = await box.run("install", dir, "--user", "--yes");
    expect(run.status, run.stderr).toBe(0);
  }
  return box;
}

describe("several ids in one change", () => {
  it("removes a package with the one that needs it, which one at a time refuses", async () => {
    const box = await installed([
      { id: "base" },
      { id: "tool", requires: ["plugin:base"] },
      { id: "other" },
    ]);
    const alone = await box.run("remove", "base", "--user", "--yes", "--json");
    expect(alone.status).toBe(1);
    expect(codesOf(alone)).toContain("dependents");
    const together = await box.run("remove", "base", "tool", "--user", "--yes", "--json");
    expect(together.status, together.stdout).toBe(0);
    expect(Object.keys(box.userLock())).toEqual(["other"]);
    for (const id of ["base", "tool"])
      expect(existsSync(join(box.configDir, "packages", id))).toBe(false);
  });

  it("still refuses for a dependent left behind, naming only the step it needs", async () => {
    const box = await installed([
      { id: "base" },
      { id: "tool", requires: ["plugin:base"] },
      { id: "other" },
    ]);
    const run = await box.run("disable", "base", "other", "--user", "--yes", "--json");
    expect(run.status).toBe(1);
    const steps = (
      JSON.parse(run.stdout) as { plan: { steps: { id: string; refusal?: { code: string } }[] } }
    ).plan.steps;
    expect(steps.map((step) => [step.id, step.refusal?.code])).toEqual([
      ["base", "dependents"],
      ["other", undefined],
    ]);
    // nothing was applied: the plan stops whole
    expect((box.userLock() as Record<string, { enabled: boolean }>).other?.enabled).toBe(true);
  });

  it("refuses the whole plan when one id is not installed", async () => {
    const box = await installed([{ id: "base" }]);
    const run = await box.run("remove", "base", "ghost", "--user", "--yes", "--json");
    expect(run.status).toBe(1);
    expect(codesOf(run)).toContain("not_installed");
    expect(Object.keys(box.userLock())).toEqual(["base"]);
  });
});
