import { createHash } from "node:crypto";
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Environment, resolveEnvironment } from "@skillshelf/core";
import { applyLifecycle, planLifecycle, restoreFromLock } from "@skillshelf/lifecycle";
import {
  lockFilePath,
  lockFromState,
  lockRoot,
  readLockFile,
  readPackageSnapshot,
  readScopeState,
  serializeLockFile,
} from "@skillshelf/store";
import { gitEnv, gitRepo, packageTree, serve, tarGz, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { change, environment, installFolder } from "./_lifecycle.js";

const digests = (env: Environment) =>
  Object.fromEntries(
    readPackageSnapshot(env)
      .copies.filter((copy) => copy.scope === "project")
      .map((copy) => [copy.id, copy.observedDigest]),
  );

/** A new project beside the first, holding only its `.skillshelf/lock.json`, same home. */
function freshClone(env: Environment): Environment {
  const cwd = testdir();
  mkdirSync(join(cwd, ".skillshelf"));
  copyFileSync(lockFilePath(env, "project"), join(cwd, ".skillshelf", "lock.json"));
  return resolveEnvironment({ cwd, home: env.home, configDir: env.configDir, env: {} });
}

function lockMatchesState(env: Environment) {
  const state = readScopeState(env, "project");
  const lock = readLockFile(env, "project");
  if (!state.ok || !lock.ok) throw new Error("unreadable");
  expect(lock.value.value).toEqual(lockFromState(state.value.state, lockRoot(env, "project")));
}

describe("restoreFromLock: a fresh clone made to match the lock", () => {
  it("installs from a local git repository at the pinned commit, to identical digests", async () => {
    const git = gitEnv();
    const repo = gitRepo(
      [
        { tree: packageTree({ id: "kit", files: { "a.md": "v1" } }), tag: "v1" },
        { tree: { "a.md": "v2" } },
      ],
      git,
    );
    const env = environment();
    const url = pathToFileURL(repo.path).href;
    const first = await planLifecycle({
      environment: env,
      operation: "install",
      targets: [`${url}#v1`],
      scope: "project",
      stage: { env: git },
    });
    expect(first.applicable).toBe(true);
    await applyLifecycle(first);
    const locked = readLockFile(env, "project");
    expect(locked.ok && locked.value.value.packages.kit).toMatchObject({
      source: { type: "git", url, ref: "v1" },
      commit: repo.commits[0],
    });
    const clone = freshClone(env);
    const restore = await restoreFromLock({
      environment: clone,
      scope: "project",
      stage: { env: git },
    });
    expect(restore.steps.map((step) => [step.operation, step.ref, step.refusal?.code])).toEqual([
      ["install", "plugin:kit", undefined],
    ]);
    const result = await applyLifecycle(restore);
    expect(result.outcomes.map((outcome) => outcome.status)).toEqual(["committed"]);
    expect(digests(clone)).toEqual(digests(env));
    expect(readFileSync(lockFilePath(clone, "project"), "utf8")).toBe(
      readFileSync(lockFilePath(env, "project"), "utf8"),
    );
    lockMatchesState(clone);
  });

  it("installs from a loopback HTTP archive", async () => {
    const archive = tarGz([
      { path: "kit/plugin.json", content: packageTree({ id: "kit" })["plugin.json"] as string },
      {
        path: "kit/skills/kit/SKILL.md",
        content: "---\nname: kit\ndescription: The kit skill.\n---\nBody\n",
      },
    ]);
    const base = await serve({ "/kit.tar.gz": archive });
    const env = environment();
    await change(env, { operation: "install", targets: [`${base}/kit.tar.gz`], scope: "project" });
    const clone = freshClone(env);
    const result = await applyLifecycle(
      await restoreFromLock({ environment: clone, scope: "project" }),
    );
    expect(result.committed).toBe(1);
    expect(digests(clone)).toEqual(digests(env));
  });

  it("pins an archive by its sha256 in the lock, and checks it again on a restore's download", async () => {
    const kit = (body: string) =>
      tarGz([
        { path: "kit/plugin.json", content: packageTree({ id: "kit" })["plugin.json"] as string },
        {
          path: "kit/skills/kit/SKILL.md",
          content: `---\nname: kit\ndescription: d\n---\n${body}\n`,
        },
      ]);
    let served = kit("one");
    const pin = createHash("sha256").update(served).digest("hex");
    const base = await serve({ "/kit.tar.gz": (_request, response) => response.end(served) });
    const env = environment();
    await change(env, {
      operation: "install",
      targets: [`${base}/kit.tar.gz#sha256=${pin}`],
      scope: "project",
    });
    const lock = JSON.parse(readFileSync(lockFilePath(env, "project"), "utf8"));
    expect(lock.packages.kit.source).toEqual({
      type: "archive",
      url: `${base}/kit.tar.gz`,
      sha256: pin,
    });
    served = kit("two");
    const restore = await restoreFromLock({ environment: freshClone(env), scope: "project" });
    expect(restore.steps[0]?.refusal).toMatchObject({
      code: "digest_mismatch",
      details: { expected: pin },
    });
  });

  it("fails with digest_mismatch when the source no longer yields the pinned tree", async () => {
    const env = environment();
    const source = testdir(packageTree({ id: "kit" }));
    await change(env, { operation: "install", targets: [source], scope: "project" });
    appendFileSync(join(source, "plugin.json"), " ");
    const restore = await restoreFromLock({ environment: freshClone(env), scope: "project" });
    expect(restore.steps[0]?.refusal?.code).toBe("digest_mismatch");
    expect(restore.applicable).toBe(false);
  });

  it("sets enabled flags and removes what the lock no longer lists; frozen passes", async () => {
    const env = environment();
    await installFolder(env, "project", { id: "kept" });
    await installFolder(env, "project", { id: "dropped" });
    await change(env, { operation: "disable", targets: ["kept"], scope: "project" });
    const path = lockFilePath(env, "project");
    const lock = JSON.parse(readFileSync(path, "utf8"));
    delete lock.packages.dropped;
    lock.packages.kept.enabled = true;
    writeFileSync(path, serializeLockFile(lock));
    const restore = await restoreFromLock({ environment: env, scope: "project", frozen: true });
    expect(restore.steps.map((step) => [step.operation, step.id])).toEqual([
      ["enable", "kept"],
      ["remove", "dropped"],
    ]);
    await applyLifecycle(restore);
    lockMatchesState(env);
  });
});

describe("the lock refuses surprises", () => {
  it("refuses a change that would alter the lock under --frozen", async () => {
    const env = environment();
    const source = testdir(packageTree({ id: "kit" }));
    const frozen = await planLifecycle({
      environment: env,
      operation: "install",
      targets: [source],
      frozen: true,
    });
    expect(frozen.steps[0]?.refusal?.code).toBe("lock_frozen");
  });

  it("refuses a change while the lock lists something the state does not (lock_ahead)", async () => {
    const env = environment();
    await installFolder(env, "project", { id: "kit" });
    const path = lockFilePath(env, "project");
    const lock = JSON.parse(readFileSync(path, "utf8"));
    lock.packages.pulled = { ...lock.packages.kit };
    writeFileSync(path, serializeLockFile(lock));
    const other = testdir(packageTree({ id: "other" }));
    const reviewed = await planLifecycle({
      environment: env,
      operation: "install",
      targets: [other],
      scope: "project",
    });
    expect(reviewed.steps[0]?.refusal).toMatchObject({
      code: "lock_ahead",
      details: { ids: ["pulled"] },
    });
    expect(reviewed.steps[0]?.refusal?.hint).toMatch(/skillshelf install/);
    expect(readFileSync(path, "utf8")).toContain("pulled");
  });
});
