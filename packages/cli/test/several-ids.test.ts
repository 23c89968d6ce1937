import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gitRepo, packageTree, skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { changeSandbox, codesOf } from "./_sandbox.js";

// Issue 31, item 0 (first part): remove, enable, disable and rollback take several ids, or
// --from <source> (every package installed from it), planned and committed as one reviewed plan.

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

/** A repository of two skills, alpha and beta, in `skills/`. */
const twoSkills = () =>
  gitRepo([
    {
      tree: {
        "skills/alpha/SKILL.md": skillFile("alpha", "Use for alpha."),
        "skills/beta/SKILL.md": skillFile("beta", "Use for beta."),
      },
    },
  ]);

describe("--from SOURCE", () => {
  it("changes every package installed from one repository, whatever folder each came from", async () => {
    const box = changeSandbox();
    const repo = twoSkills();
    const url = pathToFileURL(repo.path).href;
    expect((await box.run("install", url, "--skill", "*", "--user", "--yes")).status).toBe(0);
    const solo = testdir(packageTree({ id: "solo" }));
    expect((await box.run("install", solo, "--user", "--yes")).status).toBe(0);
    const disabled = await box.run("disable", "--from", url, "--user", "--yes", "--json");
    expect(disabled.status, disabled.stdout).toBe(0);
    const lock = box.userLock() as Record<string, { enabled: boolean }>;
    expect(Object.entries(lock).map(([id, entry]) => [id, entry.enabled])).toEqual([
      ["alpha", false],
      ["beta", false],
      ["solo", true],
    ]);
    const removed = await box.run("remove", "--from", url, "--user", "--yes");
    expect(removed.status, removed.stderr).toBe(0);
    expect(Object.keys(box.userLock())).toEqual(["solo"]);
  });

  it("takes the source as install does: a repository's folder with #ref, or the folder alone", async () => {
    const box = changeSandbox();
    const repo = twoSkills();
    const spec = `${repo.path}#main`;
    expect((await box.run("install", spec, "--skill", "*", "--user", "--yes")).status).toBe(0);
    const disabled = await box.run("disable", "--from", spec, "--user", "--yes");
    expect(disabled.status, disabled.stderr).toBe(0);
    expect(
      Object.values(box.userLock()).map((entry) => (entry as { enabled: boolean }).enabled),
    ).toEqual([false, false]);
    const removed = await box.run("remove", "--from", repo.path, "--user", "--yes");
    expect(removed.status, removed.stderr).toBe(0);
    expect(box.userLock()).toEqual({});
  });

  it("is a usage error when nothing came from the source, or nothing is named at all", async () => {
    const box = changeSandbox();
    const none = await box.run("remove", "--from", "https://github.com/acme/nothing.git", "--user");
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("usage_invalid_value");
    const bare = await box.run("remove", "--user");
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain("usage_missing_argument");
  });
});
