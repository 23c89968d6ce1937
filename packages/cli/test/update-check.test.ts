import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { gitEnv, gitRepo, packageTree, testdir, writeTree } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { changeSandbox } from "./_sandbox.js";

// Updates that tell the truth (issue 25, item 4): `update --check` asks, writes nothing, and says
// "up to date" only after comparing; `update` says what it changed and, when nothing, why.

interface Checked {
  readonly id: string;
  readonly status: string;
  readonly reason: string;
  readonly pinned: { commit?: string; digest: string };
  readonly newest?: { commit?: string; digest?: string };
}

const commit = (repo: string, files: Record<string, string>, tag?: string) => {
  const env = gitEnv();
  writeTree(repo, files);
  execFileSync("git", ["commit", "--quiet", "-am", "next"], { cwd: repo, env });
  if (tag !== undefined) execFileSync("git", ["tag", tag], { cwd: repo, env });
  return execFileSync("git", ["rev-parse", "HEAD"], { cwd: repo, env, encoding: "utf8" }).trim();
};

describe("update --check", () => {
  it("says which repositories moved on, writes nothing, and exits 1 until they are updated", async () => {
    const box = changeSandbox();
    const moving = gitRepo([{ tree: packageTree({ id: "moving", files: { "a.md": "v1" } }) }]);
    const pinned = gitRepo([
      { tree: packageTree({ id: "pinned", files: { "a.md": "v1" } }), tag: "v1" },
    ]);
    const local = testdir(packageTree({ id: "local", files: { "a.md": "v1" } }));
    for (const source of [
      `${pathToFileURL(moving.path).href}#main`,
      `${pathToFileURL(pinned.path).href}#v1`,
      local,
    ])
      expect((await box.run("install", source, "--user", "--yes")).status).toBe(0);
    const first = JSON.parse((await box.run("update", "--check", "--user", "--json")).stdout) as {
      checks: Checked[];
    };
    expect(first.checks.map((check) => [check.id, check.status])).toEqual([
      ["local", "up-to-date"],
      ["moving", "up-to-date"],
      ["pinned", "up-to-date"],
    ]);
    const moved = commit(moving.path, { "a.md": "v2" });
    commit(pinned.path, { "a.md": "v2" }, "v2");
    writeTree(local, { "a.md": "v2" });
    const lock = JSON.stringify(box.userLock());
    const run = await box.run("update", "--check", "--user", "--json");
    expect(run.status).toBe(1);
    const { checks } = JSON.parse(run.stdout) as { checks: Checked[] };
    const byId = Object.fromEntries(checks.map((check) => [check.id, check]));
    expect(byId.moving).toMatchObject({
      status: "out-of-date",
      pinned: { commit: moving.commits[0] },
      newest: { commit: moved },
    });
    // a tag does not move: v1 still names what is installed
    expect(byId.pinned).toMatchObject({
      status: "up-to-date",
      newest: { commit: pinned.commits[0] },
    });
    expect(byId.local?.status).toBe("out-of-date");
    // nothing was written
    expect(JSON.stringify(box.userLock())).toBe(lock);
    const text = await box.run("update", "--check", "--user");
    expect(text.status).toBe(1);
    expect(text.stdout).toContain("out of date");
    expect(text.stdout).toContain(`${moving.commits[0]?.slice(0, 12)} → ${moved.slice(0, 12)}`);

    // update says what it changed, commit and files before and after
    const updated = await box.run("update", "moving", "--user", "--yes");
    expect(updated.status).toBe(0);
    expect(updated.stdout).toContain(
      `commit ${moving.commits[0]?.slice(0, 12)} → ${moved.slice(0, 12)}`,
    );
    expect(updated.stdout).toMatch(/files [0-9a-f]{12} → [0-9a-f]{12}/);
    // and when nothing changed, why
    const again = await box.run("update", "moving", "--user", "--yes", "--json");
    const { plan } = JSON.parse(again.stdout) as {
      plan: { steps: unknown[]; diagnostics: { code: string; message: string }[] };
    };
    expect(plan.steps).toEqual([]);
    expect(plan.diagnostics.map((d) => d.code)).toEqual(["up_to_date"]);
    expect(plan.diagnostics[0]?.message).toContain(
      `main still names the installed commit ${moved}`,
    );
    expect((await box.run("update", "--check", "--user", "moving")).status).toBe(0);
  });

  it("is unknown, with the code, when a repository cannot be asked", async () => {
    const box = changeSandbox();
    const repo = gitRepo([{ tree: packageTree({ id: "gone", files: { "a.md": "v1" } }) }]);
    expect(
      (await box.run("install", pathToFileURL(repo.path).href, "--user", "--yes")).status,
    ).toBe(0);
    execFileSync("rm", ["-rf", repo.path]);
    const run = await box.run("update", "--check", "--user", "--json");
    expect(run.status).toBe(1);
    const { checks } = JSON.parse(run.stdout) as {
      checks: (Checked & { error?: { code: string } })[];
    };
    expect(checks.map((check) => [check.id, check.status, check.error?.code])).toEqual([
      ["gone", "unknown", "git_failed"],
    ]);
  });
});
