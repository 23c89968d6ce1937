import { execFileSync } from "node:child_process";
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkUpdates, planLifecycle, releasePlan } from "@skillshelf/lifecycle";
import { readLockFile } from "@skillshelf/store";
import { gitEnv, gitRepo, testdir, writeTree } from "@skillshelf/test-utils";
import { describe, expect, it, onTestFinished } from "vitest";
import { change, environment } from "./_lifecycle.js";

const skill = (name: string, body = "Steps.") =>
  `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}\n`;

/**
 * git's environment with a `git` first on its PATH that writes each command it is given to a log,
 * then runs the real git: what a change fetched is counted from the log.
 */
function loggedGit() {
  const env = gitEnv();
  const bin = testdir();
  const log = join(bin, "git.log");
  const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  writeFileSync(join(bin, "git"), `#!/bin/sh\necho "$*" >> "${log}"\nexec "${real}" "$@"\n`);
  chmodSync(join(bin, "git"), 0o755);
  writeFileSync(log, "");
  return {
    env: { ...env, PATH: `${bin}:${env.PATH}` },
    /** How many times git ran `command` since the last call. */
    ran(command: string): number {
      const lines = readFileSync(log, "utf8").split("\n");
      writeFileSync(log, "");
      return lines.filter((line) => line.split(" ").includes(command)).length;
    },
  };
}

function commitAll(repo: string, env: Record<string, string>, message: string): void {
  execFileSync("git", ["add", "--all"], { cwd: repo, env });
  execFileSync("git", ["commit", "--quiet", "-m", message], { cwd: repo, env });
}

/** Four skills of one repository installed as a collection, and one inside another by its folder. */
async function installedFromOneRepository() {
  const env = environment();
  const git = loggedGit();
  const repo = gitRepo(
    [
      {
        tree: {
          "skills/alpha/SKILL.md": skill("alpha"),
          "skills/beta/SKILL.md": skill("beta"),
          "skills/gamma/SKILL.md": skill("gamma"),
          "skills/outer/SKILL.md": skill("outer"),
          "skills/outer/inner/SKILL.md": skill("inner"),
        },
      },
    ],
    git.env,
  );
  const stage = { env: git.env };
  const url = `file://${repo.path}`;
  await change(env, { operation: "install", targets: [`${url}#main`], skills: ["*"], stage });
  await change(env, { operation: "install", targets: [`${url}//skills/outer/inner#main`], stage });
  git.ran("clone");
  return { env, git, repo: repo.path, stage };
}

/** The plan updating alpha, beta and gamma, released when the test ends. */
async function updatePlan(
  env: ReturnType<typeof environment>,
  stage: { env: Record<string, string> },
) {
  const plan = await planLifecycle({
    environment: env,
    operation: "update",
    targets: ["alpha", "beta", "gamma"],
    stage,
  });
  onTestFinished(() => releasePlan(plan));
  return plan;
}

describe("an update of many packages from one source", () => {
  it("fetches the repository once for every package whose folder is apart from the others'", async () => {
    const { env, git, repo, stage } = await installedFromOneRepository();
    for (const name of ["alpha", "beta", "gamma", "outer", "outer/inner"])
      writeTree(repo, { [`skills/${name}/SKILL.md`]: skill(name.split("/").at(-1) ?? "", "v2.") });
    commitAll(repo, git.env, "v2");
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: repo, encoding: "utf8" }).trim();
    const ids = ["alpha", "beta", "gamma", "outer", "inner"];
    const result = await change(env, { operation: "update", targets: ids, stage });
    expect(result.outcomes.map((outcome) => [outcome.step.id, outcome.status])).toEqual(
      ids.map((id) => [id, "committed"]),
    );
    // alpha, beta and gamma from one fetch; outer holds inner's folder, so each is fetched alone
    expect(git.ran("clone")).toBe(3);
    const lock = readLockFile(env, "user");
    const packages = lock.ok ? lock.value.value.packages : {};
    for (const id of ids) expect(packages[id]?.commit).toBe(head);
    expect(packages.beta?.source).toEqual({
      type: "git",
      url: `file://${repo}`,
      path: "skills/beta",
      ref: "main",
    });
  });

  it("refuses only the package whose folder the new commit removed", async () => {
    const { env, git, repo, stage } = await installedFromOneRepository();
    rmSync(join(repo, "skills", "beta"), { recursive: true });
    writeTree(repo, { "skills/alpha/SKILL.md": skill("alpha", "v2.") });
    commitAll(repo, git.env, "beta gone");
    const plan = await updatePlan(env, stage);
    expect(plan.steps.map((step) => [step.id, step.refusal?.code])).toEqual([
      ["alpha", undefined],
      ["skill:beta", "source_subfolder_missing"],
      ["gamma", undefined],
    ]);
    // gamma's files did not change: it is pinned to the new commit, its files kept, from the
    // same single fetch (so `update --check` agrees afterwards; issue 52, item 6)
    const gamma = plan.steps.find((step) => step.id === "gamma");
    expect(gamma?.lock.after?.digest).toBe(gamma?.lock.before?.digest);
    expect(gamma?.lock.after?.commit).not.toBe(gamma?.lock.before?.commit);
    expect(plan.diagnostics.filter((one) => one.code === "up_to_date")).toEqual([]);
    expect(git.ran("clone")).toBe(1);
  });

  it("refuses every package of a repository that cannot be fetched, trying it once", async () => {
    const { env, git, repo, stage } = await installedFromOneRepository();
    rmSync(repo, { recursive: true });
    const plan = await updatePlan(env, stage);
    expect(plan.steps.map((step) => [step.id, step.refusal?.code])).toEqual(
      ["alpha", "beta", "gamma"].map((id) => [`skill:${id}`, "git_failed"]),
    );
    expect(git.ran("clone")).toBe(1);
  });

  it("asks a repository what its ref names once in update --check, for every package from it", async () => {
    const { env, git, repo } = await installedFromOneRepository();
    writeTree(repo, { "skills/alpha/SKILL.md": skill("alpha", "v2.") });
    commitAll(repo, git.env, "v2");
    git.ran("ls-remote");
    const checks = await checkUpdates({ environment: env, stage: { env: git.env } });
    expect(checks.map((check) => [check.id, check.status])).toEqual([
      ["alpha", "out-of-date"],
      ["beta", "out-of-date"],
      ["gamma", "out-of-date"],
      ["inner", "out-of-date"],
      ["outer", "out-of-date"],
    ]);
    expect(git.ran("ls-remote")).toBe(1);
  });
});
