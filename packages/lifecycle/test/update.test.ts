import { execFileSync } from "node:child_process";
import { appendFileSync, chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { digestTree } from "@skillshelf/core";
import { applyLifecycle, planLifecycle, releasePlan } from "@skillshelf/lifecycle";
import { packagesDir, readLockFile, readPackageSnapshot } from "@skillshelf/store";
import {
  gitEnv,
  gitRepo,
  packageTree,
  skillFile,
  testdir,
  writeTree,
} from "@skillshelf/test-utils";
import { describe, expect, it, onTestFinished } from "vitest";
import { change, environment } from "./_lifecycle.js";

/** A package folder installed from its path, which the test then edits as the source. */
async function installed() {
  const env = environment();
  const source = testdir(
    packageTree({
      id: "kit",
      skills: ["alpha", "beta"],
      files: { "scripts/run.sh": "#!/bin/sh\necho run\n" },
    }),
  );
  chmodSync(join(source, "scripts", "run.sh"), 0o755);
  await change(env, { operation: "install", targets: [source] });
  return { env, source };
}

async function updatePlan(
  env: ReturnType<typeof environment>,
  extra: Record<string, unknown> = {},
) {
  const plan = await planLifecycle({
    environment: env,
    operation: "update",
    targets: ["kit"],
    ...extra,
  });
  // a plan the test only reads is released like any other
  onTestFinished(() => releasePlan(plan));
  return plan;
}

const copyDigest = (env: ReturnType<typeof environment>) =>
  readPackageSnapshot(env).copies.find((copy) => copy.id === "kit")?.observedDigest;

describe("the capability diff of an update", () => {
  it.each([
    [
      "a resource added",
      (source: string) => {
        mkdirSync(join(source, "skills", "gamma"));
        writeFileSync(join(source, "skills", "gamma", "SKILL.md"), skillFile("gamma", "New."));
      },
      { added: [{ kind: "skill", name: "gamma" }] },
    ],
    [
      "a resource removed",
      (source: string) => rmSync(join(source, "skills", "beta"), { recursive: true }),
      { removed: [{ kind: "skill", name: "beta" }] },
    ],
    [
      "a changed description",
      (source: string) =>
        writeFileSync(join(source, "skills", "alpha", "SKILL.md"), skillFile("alpha", "Changed.")),
      {
        descriptions: [
          { kind: "skill", name: "alpha", before: "The alpha skill.", after: "Changed." },
        ],
      },
    ],
    [
      "changed allowed-tools",
      (source: string) =>
        writeFileSync(
          join(source, "skills", "alpha", "SKILL.md"),
          skillFile("alpha", "The alpha skill.", "allowed-tools: Bash\n"),
        ),
      { tools: [{ kind: "skill", name: "alpha", before: [], after: ["Bash"] }] },
    ],
    [
      "a changed executable",
      (source: string) => appendFileSync(join(source, "scripts", "run.sh"), "rm -rf /\n"),
      { executables: [{ path: "scripts/run.sh", change: "changed" }] },
    ],
    [
      "an added executable",
      (source: string) => {
        writeFileSync(join(source, "scripts", "new.sh"), "#!/bin/sh\n");
        chmodSync(join(source, "scripts", "new.sh"), 0o755);
      },
      { executables: [{ path: "scripts/new.sh", change: "added" }] },
    ],
    [
      "a changed licence",
      (source: string) => {
        const manifest = JSON.parse(readFileSync(join(source, "plugin.json"), "utf8"));
        writeFileSync(
          join(source, "plugin.json"),
          JSON.stringify({ ...manifest, license: "GPL-3.0" }),
        );
      },
      { license: { before: "MIT", after: "GPL-3.0" } },
    ],
  ])("reports %s and nothing else", async (_name, edit, expected) => {
    const { env, source } = await installed();
    edit(source);
    const reviewed = await updatePlan(env);
    const diff = reviewed.steps[0]?.capabilities;
    expect({
      added: [],
      removed: [],
      descriptions: [],
      tools: [],
      executables: [],
      unchanged: false,
      ...expected,
    }).toEqual(diff);
  });

  it("is unchanged when only a body changes", async () => {
    const { env, source } = await installed();
    appendFileSync(join(source, "skills", "alpha", "SKILL.md"), "More steps.\n");
    const reviewed = await updatePlan(env);
    expect(reviewed.steps[0]?.capabilities?.unchanged).toBe(true);
  });

  it("says up to date when the source still holds what is installed", async () => {
    const { env } = await installed();
    const reviewed = await updatePlan(env);
    expect(reviewed.steps).toEqual([]);
    expect(reviewed.diagnostics.map((d) => d.code)).toEqual(["up_to_date"]);
  });
});

describe("update re-resolves the recorded git ref", () => {
  it("follows a branch, stays on a tag, and moves to a new ref on request", async () => {
    const git = gitEnv();
    const repo = gitRepo(
      [{ tree: packageTree({ id: "kit", files: { "a.md": "v1" } }), tag: "v1" }],
      git,
    );
    const url = pathToFileURL(repo.path).href;
    const onBranch = environment();
    const onTag = environment();
    await change(onBranch, { operation: "install", targets: [`${url}#main`], stage: { env: git } });
    await change(onTag, { operation: "install", targets: [`${url}#v1`], stage: { env: git } });
    writeTree(repo.path, { "a.md": "v2" });
    execFileSync("git", ["commit", "--quiet", "-am", "v2"], { cwd: repo.path, env: git });
    execFileSync("git", ["tag", "v2"], { cwd: repo.path, env: git });
    const update = (env: ReturnType<typeof environment>, extra: Record<string, unknown> = {}) =>
      updatePlan(env, { stage: { env: git }, ...extra });

    const branch = await update(onBranch);
    expect(branch.steps.map((step) => [step.operation, step.refusal?.code])).toEqual([
      ["update", undefined],
    ]);
    await applyLifecycle(branch);
    const tag = await update(onTag);
    expect(tag.steps).toEqual([]);
    expect(tag.diagnostics.map((d) => d.code)).toEqual(["up_to_date"]);
    await applyLifecycle(await update(onTag, { ref: "v2" }));
    expect(copyDigest(onTag)).toBe(copyDigest(onBranch));
    const locked = readLockFile(onTag, "user");
    expect(locked.ok && locked.value.value.packages.kit?.source).toMatchObject({ ref: "v2" });
  });
});

describe("update and rollback", () => {
  it("refuses local changes unless forced, and a forced update keeps them as a backup", async () => {
    const { env, source } = await installed();
    appendFileSync(join(source, "skills", "alpha", "SKILL.md"), "v2\n");
    writeFileSync(join(packagesDir(env, "user"), "kit", "local.md"), "local work\n");
    expect((await updatePlan(env)).steps[0]?.refusal?.code).toBe("local_changes");
    const result = await applyLifecycle(await updatePlan(env, { force: true }));
    const backup = result.outcomes[0]?.recovery?.packageBackup as string;
    expect(readFileSync(join(backup, "local.md"), "utf8")).toBe("local work\n");
    expect(result.outcomes[0]?.verification?.ok).toBe(true);
  });

  it("restores the exact previous digest, and refuses with nothing to restore", async () => {
    const { env, source } = await installed();
    const first = copyDigest(env);
    expect(
      (await planLifecycle({ environment: env, operation: "rollback", targets: ["kit"] })).steps[0]
        ?.refusal?.code,
    ).toBe("no_previous_version");
    appendFileSync(join(source, "skills", "alpha", "SKILL.md"), "v2\n");
    await applyLifecycle(await updatePlan(env));
    const second = copyDigest(env);
    expect(second).not.toBe(first);
    const rolled = await applyLifecycle(
      await planLifecycle({ environment: env, operation: "rollback", targets: ["kit"] }),
    );
    expect(rolled.outcomes[0]?.verification).toMatchObject({ tree: "present", ok: true });
    expect(copyDigest(env)).toBe(first);
    expect(digestTree(join(packagesDir(env, "user"), "kit")).digest).toBe(first);
  });
});
