import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { canonicalJson } from "@skillshelf/core";
import { applyLifecycle, planLifecycle, releasePlan } from "@skillshelf/lifecycle";
import { discoverLibrary } from "@skillshelf/sources";
import { packagesDir, readPackageSnapshot, readScopeState } from "@skillshelf/store";
import { describe, expect, it } from "vitest";
import { change, environment, installFolder, offer } from "./_lifecycle.js";

const evidence = { "assets/evidence.txt": "evidence\n" };

function plan(env: ReturnType<typeof environment>, request: Record<string, unknown>) {
  return planLifecycle({
    environment: env,
    discovery: discoverLibrary(env),
    ...(request as { operation: "install"; targets: string[] }),
  });
}

describe("planning an install", () => {
  it("stages each dependency as its own step before its dependent, and writes nothing", async () => {
    const env = environment();
    offer(env, [
      { id: "first", kind: "skill", files: evidence },
      { id: "second", kind: "skill", requires: ["skill:first"], files: evidence },
      { id: "target", requires: ["skill:first", "skill:second"], files: evidence },
    ]);
    const reviewed = await plan(env, {
      operation: "install",
      targets: ["plugin:target"],
      withRequirements: true,
    });
    expect(reviewed.applicable).toBe(true);
    expect(reviewed.steps.map((step) => step.ref)).toEqual([
      "skill:first",
      "skill:second",
      "plugin:target",
    ]);
    expect(existsSync(packagesDir(env, "user"))).toBe(false);
    // the plan is data: canonical JSON, its staging outside it
    const json = JSON.parse(JSON.stringify(reviewed));
    expect(json).not.toHaveProperty("staging");
    expect(canonicalJson(json)).toBe(canonicalJson(reviewed));
    const staged = reviewed.steps.map((step) => step.source?.dir as string);
    expect(staged.every((dir) => existsSync(dir))).toBe(true);
    releasePlan(reviewed);
    releasePlan(reviewed);
    expect(staged.some((dir) => existsSync(dir))).toBe(false);
  });

  it("refuses, listing them, when requirements are not installed and not asked for", async () => {
    const env = environment();
    offer(env, [
      { id: "first", kind: "skill" },
      { id: "target", requires: ["skill:first"] },
    ]);
    const reviewed = await plan(env, { operation: "install", targets: ["target"] });
    expect(reviewed.applicable).toBe(false);
    expect(reviewed.steps.map((step) => [step.ref, step.refusal?.code])).toEqual([
      ["plugin:target", "requirement_missing"],
    ]);
    expect(reviewed.steps[0]?.refusal?.details).toEqual({ missing: ["skill:first"] });
    expect(reviewed.staging.size).toBe(0);
  });

  it.each([
    [
      "a requirement no index offers",
      [{ id: "target", requires: ["skill:never"] }],
      "requirement_missing",
    ],
    [
      "a requirement cycle, naming it",
      [
        { id: "a", kind: "skill" as const, requires: ["skill:b"] },
        { id: "b", kind: "skill" as const, requires: ["skill:a"] },
        { id: "target", requires: ["skill:a"] },
      ],
      "requirement_cycle",
    ],
  ])("refuses %s", async (_name, packages, code) => {
    const env = environment();
    offer(env, packages);
    const reviewed = await plan(env, {
      operation: "install",
      targets: ["plugin:target"],
      withRequirements: true,
    });
    expect(reviewed.steps.at(-1)?.refusal?.code).toBe(code);
    if (code === "requirement_cycle")
      expect(reviewed.steps.at(-1)?.refusal?.details?.cycle).toEqual([
        "skill:a",
        "skill:b",
        "skill:a",
      ]);
  });

  it("names an unknown, an ambiguous and an already installed package", async () => {
    const env = environment();
    offer(env, [{ id: "twin", kind: "skill" }, { id: "twin" }, { id: "pdf" }]);
    expect(
      (await plan(env, { operation: "install", targets: ["nope"] })).steps[0]?.refusal?.code,
    ).toBe("package_unknown");
    const twin = await plan(env, { operation: "install", targets: ["twin"] });
    expect(twin.steps[0]?.refusal).toMatchObject({
      code: "package_ambiguous",
      details: { candidates: ["plugin:twin", "skill:twin"] },
    });
    await change(env, { operation: "install", targets: ["plugin:pdf"] });
    // the same package again is nothing to do, said by an info, not a refusal
    const again = await plan(env, { operation: "install", targets: ["plugin:pdf"] });
    expect(again.steps).toEqual([]);
    expect(again.applicable).toBe(true);
    expect(again.diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ["info", "already_installed"],
    ]);
    expect(again.staging.size).toBe(0);
  });

  it("refuses a source that no longer matches its pin", async () => {
    const env = environment();
    const folders = offer(env, [{ id: "pdf" }]);
    appendFileSync(join(folders.pdf?.dir as string, "plugin.json"), " ");
    const reviewed = await plan(env, { operation: "install", targets: ["pdf"] });
    expect(reviewed.steps[0]?.refusal?.code).toBe("digest_mismatch");
  });
});

describe("applying a plan", () => {
  it("keeps a committed dependency when a later source changes after review, and refreshes once", async () => {
    const env = environment();
    offer(env, [
      { id: "first", kind: "skill", files: evidence },
      { id: "second", kind: "skill", files: evidence },
      { id: "target", requires: ["skill:first", "skill:second"], files: evidence },
    ]);
    const reviewed = await plan(env, {
      operation: "install",
      targets: ["plugin:target"],
      withRequirements: true,
    });
    // the second dependency's staged source is edited after review
    writeFileSync(
      join(reviewed.steps[1]?.source?.dir as string, "assets", "evidence.txt"),
      "edited\n",
    );
    let refreshed = 0;
    const result = await applyLifecycle(reviewed, {
      refresh: () => {
        refreshed += 1;
      },
    });
    expect(result.outcomes.map((outcome) => outcome.status)).toEqual([
      "committed",
      "failed",
      "unattempted",
    ]);
    expect(result.outcomes[1]?.error).toMatchObject({
      code: "writer",
      details: { cause: "digest_mismatch" },
    });
    expect(refreshed).toBe(1);
    expect(result.refresh.status).toBe("refreshed");
    expect(result.outcomes[0]?.verification).toMatchObject({
      evidence: "post-refresh",
      tree: "present",
      record: "recorded",
      copy: "loadable",
      ok: true,
    });
    expect(readPackageSnapshot(env).copies.map((copy) => copy.id)).toEqual(["first"]);
    expect(reviewed.steps.some((step) => existsSync(step.source?.dir as string))).toBe(false);
  });

  it("keeps a durable commit when state.json is corrupted during refresh", async () => {
    const env = environment();
    offer(env, [{ id: "pdf", files: evidence }]);
    const reviewed = await plan(env, { operation: "install", targets: ["pdf"] });
    const result = await applyLifecycle(reviewed, {
      refresh: () => writeFileSync(join(packagesDir(env, "user"), "state.json"), "{ torn"),
    });
    const [outcome] = result.outcomes;
    expect(outcome?.status).toBe("committed");
    expect(outcome?.verification).toMatchObject({ evidence: "post-refresh", record: "unreadable" });
    expect(outcome?.error?.code).toBe("verification");
    expect(existsSync(join(packagesDir(env, "user"), "pdf", "assets", "evidence.txt"))).toBe(true);
  });

  it("reports a refresh failure separately and never undoes the commit", async () => {
    const env = environment();
    offer(env, [{ id: "pdf" }]);
    const reviewed = await plan(env, { operation: "install", targets: ["pdf"] });
    const result = await applyLifecycle(reviewed, {
      refresh: () => {
        throw new Error("namespace clash");
      },
    });
    expect(result.refresh).toEqual({ status: "failed", error: "namespace clash" });
    expect(result.committed).toBe(1);
    const none = await applyLifecycle(await plan(env, { operation: "install", targets: ["pdf"] }));
    expect(none.refresh.status).toBe("not-applicable");
    expect(none.outcomes).toEqual([]);
  });

  it("refuses stale facts inside the writer's lock and writes nothing", async () => {
    const env = environment();
    await installFolder(env, "user", { id: "pdf" });
    const reviewed = await plan(env, { operation: "disable", targets: ["pdf"] });
    await change(env, { operation: "disable", targets: ["pdf"] });
    const before = readScopeState(env, "user");
    const result = await applyLifecycle(reviewed);
    expect(result.outcomes[0]?.error).toMatchObject({
      code: "stale_plan",
      details: { changed: { fact: "enabled", expected: true, observed: false } },
    });
    expect(readScopeState(env, "user")).toEqual(before);
  });
});

describe("enable, disable and remove", () => {
  it("a disabled project copy still shadows the user copy; removing it reveals the user copy", async () => {
    const env = environment();
    await installFolder(env, "user", { id: "pdf" });
    await installFolder(env, "project", { id: "pdf" });
    const disable = await plan(env, { operation: "disable", targets: ["pdf"], scope: "project" });
    expect(disable.steps[0]).toMatchObject({
      effectiveAfter: { scope: "project", loadable: false },
      note: "the disabled project copy still shadows the user copy; removal would reveal it",
    });
    await applyLifecycle(disable);
    const remove = await plan(env, { operation: "remove", targets: ["pdf"], scope: "project" });
    expect(remove.steps[0]?.effectiveAfter).toEqual({ scope: "user", loadable: true });
    const result = await applyLifecycle(remove);
    expect(result.outcomes[0]?.verification).toMatchObject({
      tree: "absent",
      record: "absent",
      effective: { scope: "user", loadable: true },
      ok: true,
    });
  });

  it("refuses to newly break a dependent, at plan time and at the writer", async () => {
    const env = environment();
    offer(env, [
      { id: "dep", kind: "skill" },
      { id: "consumer", requires: ["skill:dep"] },
    ]);
    await change(env, { operation: "install", targets: ["consumer"], withRequirements: true });
    const remove = await plan(env, { operation: "remove", targets: ["dep"] });
    expect(remove.steps[0]?.dependents.newlyBroken).toEqual([
      { ref: "plugin:consumer", scope: "user", missing: ["skill:dep"] },
    ]);
    expect(remove.steps[0]?.refusal?.code).toBe("dependents");
    // a disabled dependent no longer blocks
    await change(env, { operation: "disable", targets: ["consumer"] });
    const allowed = await plan(env, { operation: "remove", targets: ["dep"] });
    expect(allowed.applicable).toBe(true);
    // a dependent enabled after planning is caught by the writer
    await change(env, { operation: "enable", targets: ["consumer"] });
    const result = await applyLifecycle(allowed);
    expect(result.outcomes[0]).toMatchObject({
      status: "failed",
      error: { code: "refused", details: { cause: "dependents" } },
    });
  });

  it("refuses to enable a damaged copy and says how to repair it", async () => {
    const env = environment();
    await installFolder(env, "user", { id: "pdf" });
    await change(env, { operation: "disable", targets: ["pdf"] });
    appendFileSync(join(packagesDir(env, "user"), "pdf", "plugin.json"), " ");
    const reviewed = await plan(env, { operation: "enable", targets: ["pdf"] });
    expect(reviewed.steps[0]?.refusal).toMatchObject({
      code: "copy_invalid",
      details: { state: "damaged" },
    });
    expect(reviewed.steps[0]?.refusal?.hint).toMatch(/update --force/);
  });
});
