import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  type NpmRegistry,
  skillFile,
  startNpmRegistry,
  testdir,
  writeTree,
} from "@skillshelf/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, runCliAsync } from "../test/_run.js";
import { changeSandbox, codesOf, everyFileText } from "../test/_sandbox.js";

/** How an .npmrc names the token's variable. */
const TOKEN_VARIABLE = ["$", "{NPM_TOKEN}"].join("");
let registry: NpmRegistry;

/** Publish @team/skills at `version`, its pdf skill saying `steps`. */
async function publishSkills(version: string, steps: string): Promise<void> {
  await registry.publish(
    testdir({
      "package.json": JSON.stringify({ name: "@team/skills", version }),
      "skills/pdf/SKILL.md": skillFile("pdf", "Read PDF files.", "", `# pdf\n\n${steps}\n`),
      "skills/deploy/SKILL.md": skillFile("deploy", "Deploy the site."),
    }),
  );
}

beforeAll(async () => {
  registry = await startNpmRegistry();
  await publishSkills("1.0.0", "One step.");
}, 120_000);

afterAll(() => registry?.close());

describe("install, check, update and restore from a private npm registry (issue 27, item 1)", () => {
  it("uses the user's .npmrc, pins version and integrity in the lock, and never shows the token", async () => {
    const box = changeSandbox();
    // the user's own npm configuration: a scoped registry, and its token from the environment
    writeFileSync(
      join(box.home, ".npmrc"),
      `@team:registry=${registry.url}\n${registry.authLine.replace(registry.token, TOKEN_VARIABLE)}\n`,
    );
    const runs: CliRun[] = [];
    const cli =
      (env: Record<string, string>) =>
      async (...args: string[]) => {
        const run = await runCliAsync(args, { cwd: box.cwd, env });
        runs.push(run);
        return run;
      };
    const withToken = cli({ ...box.env, NPM_TOKEN: registry.token });

    const refused = await cli(box.env)(
      "install",
      "npm:@team/skills@^1.0.0",
      "--skill",
      "*",
      "--user",
      "--yes",
      "--json",
    );
    expect(refused.status).toBe(1);
    expect(codesOf(refused)).toContain("npm_config_invalid");
    const wrong = await cli({ ...box.env, NPM_TOKEN: "not-the-token" })(
      "install",
      "npm:@team/skills@^1.0.0",
      "--skill",
      "*",
      "--user",
      "--yes",
      "--json",
    );
    expect(codesOf(wrong)).toContain("auth_refused");

    const installed = await withToken(
      "install",
      "npm:@team/skills@^1.0.0",
      "--skill",
      "*",
      "--user",
      "--yes",
    );
    expect(installed.status, installed.stderr).toBe(0);
    const lock = box.userLock() as Record<string, { source: unknown; commit?: string }>;
    expect(Object.keys(lock).sort()).toEqual(["deploy", "pdf"]);
    expect(lock.pdf?.source).toEqual({
      type: "npm",
      name: "@team/skills",
      range: "^1.0.0",
      path: "skills/pdf",
    });
    expect(lock.pdf?.commit).toMatch(/^1\.0\.0@sha512-/);

    expect((await withToken("update", "--check", "--user")).status).toBe(0);
    await publishSkills("1.1.0", "Two steps.");
    const stale = await withToken("update", "--check", "--user", "--json");
    expect(stale.status).toBe(1);
    const checks = JSON.parse(stale.stdout).checks as {
      id: string;
      status: string;
      reason: string;
      newest?: { commit?: string };
    }[];
    const pdf = checks.find((check) => check.id === "pdf");
    expect(pdf?.status).toBe("out-of-date");
    expect(pdf?.newest?.commit).toMatch(/^1\.1\.0@sha512-/);
    // said as versions, not as commits (issue 52, item 10)
    expect(pdf?.reason).toBe("its ref moved from version 1.0.0 to version 1.1.0");

    const updated = await withToken("update", "pdf", "--user", "--yes");
    expect(updated.status, updated.stderr).toBe(0);
    const after = box.userLock() as Record<string, { commit?: string }>;
    expect(after.pdf?.commit).toMatch(/^1\.1\.0@sha512-/);
    expect(after.deploy?.commit).toMatch(/^1\.0\.0@sha512-/);

    // a restore fetches exactly the pinned versions again
    rmSync(join(box.configDir, "packages"), { recursive: true });
    const restored = await withToken("install", "--user", "--yes");
    expect(restored.status, restored.stderr).toBe(0);
    expect(readFileSync(join(box.configDir, "packages/pdf/SKILL.md"), "utf8")).toContain(
      "Two steps.",
    );
    expect(readFileSync(join(box.configDir, "packages/deploy/SKILL.md"), "utf8")).toContain(
      "deploy",
    );
    expect((await withToken("verify")).status).toBe(0);

    for (const run of runs) expect(run.stdout + run.stderr).not.toContain(registry.token);
    for (const text of everyFileText(box.configDir)) expect(text).not.toContain(registry.token);
  });
});

describe("sync-npm (issue 60, item 5)", () => {
  it("installs the skills an installed dependency ships, pinned to its version, and prunes them when it leaves", async () => {
    const box = changeSandbox();
    writeFileSync(
      join(box.home, ".npmrc"),
      `@team:registry=${registry.url}\n${registry.authLine}\n`,
    );
    writeFileSync(
      join(box.cwd, "package.json"),
      JSON.stringify({ name: "app", version: "1.0.0", dependencies: { "@team/skills": "1.0.0" } }),
    );
    // the dependency installed by npm itself, from the registry the test started
    await promisify(execFile)(
      "npm",
      ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock"],
      { cwd: box.cwd, env: { ...box.env, npm_config_cache: testdir() } },
    );
    const synced = await runCliAsync(["sync-npm", "--exclude", "@team/skills#deploy", "--yes"], {
      cwd: box.cwd,
      env: box.env,
    });
    expect(synced.status, synced.stderr).toBe(0);
    const lock = () =>
      JSON.parse(readFileSync(join(box.cwd, ".skillshelf", "lock.json"), "utf8"))
        .packages as Record<string, { source: { type: string; name: string; range: string } }>;
    expect(Object.keys(lock())).toEqual(["pdf"]);
    expect(lock().pdf?.source).toMatchObject({ type: "npm", name: "@team/skills", range: "1.0.0" });

    // the dependency leaves: what the sync installed goes with it
    writeFileSync(join(box.cwd, "package.json"), JSON.stringify({ name: "app", version: "1.0.0" }));
    rmSync(join(box.cwd, "node_modules", "@team"), { recursive: true, force: true });
    const pruned = await runCliAsync(["sync-npm", "--yes"], { cwd: box.cwd, env: box.env });
    expect(pruned.status, pruned.stderr).toBe(0);
    expect(Object.keys(lock())).toEqual([]);
  }, 120_000);

  it("with --recursive, syncs the workspace packages' dependencies, leaves a linked workspace package out, and prunes in one document", async () => {
    const box = changeSandbox();
    writeFileSync(
      join(box.home, ".npmrc"),
      `@team:registry=${registry.url}\n${registry.authLine}\n`,
    );
    const web = (dependencies: Record<string, string>) =>
      JSON.stringify({ name: "web", version: "1.0.0", dependencies });
    writeTree(box.cwd, {
      "package.json": JSON.stringify({ name: "root", private: true, workspaces: ["packages/*"] }),
      "packages/web/package.json": web({ "@team/skills": "1.0.0", lib: "1.0.0" }),
      // a package of the workspace itself, shipping a skill: linked in by npm, never synced
      "packages/lib/package.json": JSON.stringify({ name: "lib", version: "1.0.0" }),
      "packages/lib/SKILL.md": skillFile("lib", "The workspace's own."),
    });
    await promisify(execFile)(
      "npm",
      ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock"],
      { cwd: box.cwd, env: { ...box.env, npm_config_cache: testdir() } },
    );
    const sync = async () => {
      const run = await runCliAsync(["sync-npm", "--recursive", "--yes", "--json"], {
        cwd: box.cwd,
        env: box.env,
      });
      expect(run.status, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as {
        skills: { dependency: string; skill: string }[];
        pruned: string[];
        changes: { outcomes: { id: string; status: string }[] }[];
      };
    };
    const synced = await sync();
    expect(synced.skills.map((one) => `${one.dependency}#${one.skill}`)).toEqual([
      "@team/skills#deploy",
      "@team/skills#pdf",
    ]);
    expect(synced.changes.flatMap((change) => change.outcomes.map((one) => one.status))).toEqual([
      "committed",
      "committed",
    ]);
    const lock = () =>
      Object.keys(
        JSON.parse(readFileSync(join(box.cwd, ".skillshelf", "lock.json"), "utf8")).packages,
      ).sort();
    expect(lock()).toEqual(["deploy", "pdf"]);

    // the workspace package drops the dependency: one run, one document, both pruned
    writeFileSync(join(box.cwd, "packages", "web", "package.json"), web({ lib: "1.0.0" }));
    rmSync(join(box.cwd, "node_modules", "@team"), { recursive: true, force: true });
    const pruned = await sync();
    expect(pruned.skills).toEqual([]);
    expect(pruned.pruned).toEqual(["deploy", "pdf"]);
    expect(lock()).toEqual([]);
  }, 120_000);
});
