import { execFileSync } from "node:child_process";
import { appendFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { digestTree } from "@skillshelf/core";
import { applyLifecycle, planLifecycle, releasePlan } from "@skillshelf/lifecycle";
import { createScopeCache, readLockFile, readPackageSnapshot } from "@skillshelf/store";
import { bareClone, gitEnv, gitRepo, link, testdir, writeTree } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { change, environment } from "./_lifecycle.js";

const skill = (name: string, body = "Steps.") =>
  `---\nname: ${name}\ndescription: The ${name} skill.\nallowed-tools: Read\n---\n${body}\n`;

describe("installing from a collection of skills", () => {
  it("installs the chosen skills of a folder with no manifest, each as a skill package", async () => {
    const env = environment();
    const dir = testdir({
      "skills/alpha/SKILL.md": skill("alpha"),
      "skills/beta/SKILL.md": skill("beta"),
      "skills/gamma/SKILL.md": skill("gamma"),
    });
    const result = await change(env, {
      operation: "install",
      targets: [dir],
      skills: ["alpha", "gamma"],
    });
    expect(result.outcomes.map((outcome) => [outcome.step.id, outcome.status])).toEqual([
      ["alpha", "committed"],
      ["gamma", "committed"],
    ]);
    const copies = readPackageSnapshot(env).copies;
    expect(copies.map((copy) => [copy.id, copy.manifest?.kind, copy.state])).toEqual([
      ["alpha", "skill", "loadable"],
      ["gamma", "skill", "loadable"],
    ]);
    const lock = readLockFile(env, "user");
    expect(lock.ok && lock.value.value.packages.alpha?.source).toEqual({
      type: "local",
      path: join(dir, "skills", "alpha"),
    });
  });

  it("reads a local folder where it is and a repository as fetched: only the chosen skills are read", async () => {
    // beta links out of the collection: nothing outside the chosen skill is copied, read or refused
    const tree = {
      "skills/alpha/SKILL.md": skill("alpha"),
      "skills/beta/SKILL.md": skill("beta"),
      "skills/beta/secret.md": link("../../../outside.md"),
    };
    const dir = join(testdir({ "outside.md": "secret" }), "collection");
    writeTree(dir, tree);
    const before = readdirSync(dir, { recursive: true }).sort();
    const git = gitEnv();
    const repo = gitRepo([{ tree }], git);
    for (const target of [dir, `file://${repo.path}`]) {
      const env = environment();
      const result = await change(env, {
        operation: "install",
        targets: [target],
        skills: ["alpha"],
        stage: { env: git },
      });
      expect(result.outcomes.map((outcome) => [outcome.step.id, outcome.status])).toEqual([
        ["alpha", "committed"],
      ]);
      expect(readPackageSnapshot(env).copies.map((copy) => [copy.id, copy.state])).toEqual([
        ["alpha", "loadable"],
      ]);
    }
    // the folder a user named is left as it was: no plugin.json written into it
    expect(readdirSync(dir, { recursive: true }).sort()).toEqual(before);
    // the skill that links out is refused when it is chosen, from either
    for (const target of [dir, `file://${repo.path}`]) {
      const plan = await planLifecycle({
        environment: environment(),
        operation: "install",
        targets: [target],
        skills: ["beta"],
        stage: { env: git },
      });
      releasePlan(plan);
      expect(plan.steps[0]?.refusal?.code).toBe("tree_link_escape");
    }
  });

  it("trusts a skill read in place at planning only while its stamp holds: one edited after is refused", async () => {
    const git = gitEnv();
    const repo = gitRepo(
      [
        {
          tree: { "skills/alpha/SKILL.md": skill("alpha"), "skills/beta/SKILL.md": skill("beta") },
        },
      ],
      git,
    );
    const env = environment();
    const cache = createScopeCache();
    const plan = await planLifecycle({
      environment: env,
      operation: "install",
      targets: [`file://${repo.path}`],
      skills: ["*"],
      stage: { env: git },
      cache,
    });
    const [alpha, beta] = plan.steps;
    // the plan read both where they were fetched, and told the cache what it found
    expect(cache.trees.get(alpha?.source?.dir as string)?.digest).toBe(alpha?.source?.digest);
    appendFileSync(join(beta?.source?.dir as string, "SKILL.md"), "Edited after review.\n");
    const result = await applyLifecycle(plan, { cache });
    expect(result.outcomes.map((outcome) => [outcome.step.id, outcome.status])).toEqual([
      ["alpha", "committed"],
      ["beta", "failed"],
    ]);
    expect(result.outcomes[1]?.error).toMatchObject({ details: { cause: "digest_mismatch" } });
    expect(result.outcomes[0]?.verification?.ok).toBe(true);
  });

  it("stages a skill holding another chosen skill as fetched, and the inner one apart", async () => {
    const env = environment();
    const dir = testdir({
      "skills/outer/SKILL.md": skill("outer"),
      "skills/outer/inner/SKILL.md": skill("inner"),
      "skills/outer/inner/notes.md": "notes",
      ".claude-plugin/marketplace.json": JSON.stringify({
        plugins: [{ name: "inner", skills: ["skills/outer/inner"] }],
      }),
    });
    const result = await change(env, { operation: "install", targets: [dir], skills: ["*"] });
    expect(result.outcomes.map((outcome) => [outcome.step.id, outcome.status])).toEqual([
      ["inner", "committed"],
      ["outer", "committed"],
    ]);
    const copies = new Map(readPackageSnapshot(env).copies.map((copy) => [copy.id, copy]));
    // the outer copy holds the inner folder exactly as the source does, with no manifest added
    expect(digestTree(join(copies.get("outer")?.dir ?? "", "inner")).digest).toBe(
      digestTree(join(dir, "skills", "outer", "inner")).digest,
    );
    expect(readdirSync(copies.get("inner")?.dir ?? "").sort()).toEqual([
      "SKILL.md",
      "notes.md",
      "plugin.json",
    ]);
  });

  it("refuses a collection of several skills with none named, listing them", async () => {
    const env = environment();
    const dir = testdir({
      "skills/alpha/SKILL.md": skill("alpha"),
      "skills/beta/SKILL.md": skill("beta"),
    });
    const plan = await planLifecycle({ environment: env, operation: "install", targets: [dir] });
    expect(plan.applicable).toBe(false);
    const [step] = plan.steps;
    expect(step?.refusal?.code).toBe("collection_choice_required");
    expect(
      ((step?.refusal?.details?.skills ?? []) as { name: string }[]).map((found) => found.name),
    ).toEqual(["alpha", "beta"]);
    const unknown = await planLifecycle({
      environment: env,
      operation: "install",
      targets: [dir],
      skills: ["nope"],
    });
    expect(unknown.steps[0]?.refusal?.code).toBe("collection_skill_unknown");
    const empty = await planLifecycle({
      environment: env,
      operation: "install",
      targets: [testdir({ "README.md": "x" })],
    });
    expect(empty.steps[0]?.refusal?.code).toBe("collection_empty");
  });

  it("installs a single-skill repository on a branch, and updates it after a new commit", async () => {
    const env = environment();
    const git = gitEnv();
    const repo = gitRepo([{ tree: { "SKILL.md": skill("solo") } }], git);
    const stage = { env: git };
    await change(env, { operation: "install", targets: [`${repo.path}#main`], stage });
    const lock = readLockFile(env, "user");
    expect(lock.ok && lock.value.value.packages.solo).toMatchObject({
      kind: "skill",
      version: "0.0.0",
      source: { type: "git", url: repo.path, ref: "main" },
    });
    // a new commit on the branch, with a script and a wider allowed-tools
    writeTree(repo.path, {
      "SKILL.md": skill("solo").replace("Read", "Read Bash"),
      "run.sh": { content: "#!/bin/sh\n", mode: 0o755 },
    });
    execFileSync("git", ["add", "--all"], { cwd: repo.path, env: git });
    execFileSync("git", ["commit", "--quiet", "-m", "v2"], { cwd: repo.path, env: git });
    const plan = await planLifecycle({
      environment: env,
      operation: "update",
      targets: ["solo"],
      stage,
    });
    releasePlan(plan);
    expect(plan.steps[0]?.refusal).toBeUndefined();
    expect(plan.steps[0]?.capabilities?.tools).toMatchObject([
      { name: "solo", before: ["Read"], after: ["Bash", "Read"] },
    ]);
    expect(plan.steps[0]?.capabilities?.executables).toEqual([{ path: "run.sh", change: "added" }]);
  });

  it("installs one skill of a repository by its subfolder", async () => {
    const env = environment();
    const git = gitEnv();
    const repo = gitRepo(
      [
        {
          tree: { "skills/alpha/SKILL.md": skill("alpha"), "skills/beta/SKILL.md": skill("beta") },
        },
      ],
      git,
    );
    const url = bareClone(repo.path, git);
    await change(env, {
      operation: "install",
      targets: [`${url}//skills/beta`],
      stage: { env: git },
    });
    expect(readPackageSnapshot(env).copies.map((copy) => copy.id)).toEqual(["beta"]);
    const lock = readLockFile(env, "user");
    expect(lock.ok && lock.value.value.packages.beta?.source).toEqual({
      type: "git",
      url,
      path: "skills/beta",
    });
  });
});
