import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Environment, resolveEnvironment } from "@skillshelf/core";
import { applyLifecycle, planLifecycle, restoreFromLock } from "@skillshelf/lifecycle";
import { lockFilePath } from "@skillshelf/store";
import { cliBin, sha256sumTree } from "./cli-bench.js";
import type { InstallableSkills } from "./corpus-tree.js";
import { BENCH_GIT_ENV, benchEnvironment, writePackage } from "./installed.js";
import { type BenchOptions, median, timeSideBySideAsync, verdict } from "./measure.js";

const PACKAGES = 50;

/**
 * The restore benchmark: a project whose lock pins 50 packages, each in its own local git
 * repository, restored into a fresh clone (its `.skillshelf/lock.json` alone) by `restoreFromLock`
 * and `applyLifecycle`, beside the physical floor in the same run: for each repository
 * `git clone --depth 1`, a plain recursive copy of the package and `sha256sum` of its files.
 * Target: at most 2×.
 */
export async function runRestoreBench(options: BenchOptions): Promise<string> {
  const count = Math.min(PACKAGES, Math.max(2, Math.round(options.count / 20)));
  const dir = join(options.workDir, "restore");
  rmSync(dir, { recursive: true, force: true });
  const source = benchEnvironment(join(dir, "original"));
  const urls = Array.from({ length: count }, (_, index) => gitPackage(options.skills, dir, index));
  const plan = await planLifecycle({
    environment: source,
    operation: "install",
    targets: urls,
    scope: "project",
  });
  const installed = await applyLifecycle(plan);
  if (installed.outcomes.some((outcome) => outcome.status !== "committed"))
    throw new Error("bench: the original project could not be installed");
  let round = 0;
  const restore = async () => {
    const clone = freshClone(source, join(dir, `clone-${round++}`));
    const result = await applyLifecycle(
      await restoreFromLock({ environment: clone, scope: "project" }),
    );
    const committed = result.outcomes.filter((outcome) => outcome.status === "committed");
    if (committed.length !== count)
      throw new Error(`bench: restored ${committed.length} of ${count}`);
  };
  const bin = cliBin();
  // what a person runs in the fresh clone: `install` with no targets restores the lock
  const command = async () => {
    const clone = freshClone(source, join(dir, `clone-${round++}`));
    execFileSync(process.execPath, [bin, "install", "--project", "--yes"], {
      cwd: clone.cwd,
      env: { ...BENCH_GIT_ENV, HOME: clone.home, SKILLSHELF_HOME: clone.configDir },
      stdio: "ignore",
    });
  };
  const floor = async () => {
    const into = join(dir, `floor-${round++}`);
    for (const [index, url] of urls.entries()) physicalFloor(url, join(into, String(index)));
  };
  console.log(`bench: timing restores of ${count} packages, ${options.rounds} rounds side by side`);
  const times = await timeSideBySideAsync(
    {
      "floor (git clone --depth 1, cp -r, sha256sum)": floor,
      "restoreFromLock + apply": restore,
      "skillshelf install (no targets), process start to exit": command,
    },
    options.rounds,
  );
  const base = median(times["floor (git clone --depth 1, cp -r, sha256sum)"] ?? []);
  const ours = median(times["restoreFromLock + apply"] ?? []);
  const ratio = ours / base;
  const whole = median(times["skillshelf install (no targets), process start to exit"] ?? []);
  const sizes = [17, Math.min(200, Math.max(20, Math.round(options.count / 50)))];
  const shared: string[] = [];
  for (const skills of sizes)
    shared.push(await oneRepository(options, join(dir, `one-${skills}`), skills));
  return [
    "## Restoring a lock",
    "",
    `A fresh clone holding only the project's lock, which pins ${count} packages of one real skill each (${options.skills.describe(count)} in all), every one in its own local git repository; median of ${options.rounds} rounds.`,
    "",
    "| variant | ms | ms per package | vs floor |",
    "|---|---|---|---|",
    `| floor (git clone --depth 1, cp -r, sha256sum) | ${base.toFixed(1)} | ${(base / count).toFixed(1)} | 1.00× |`,
    `| restoreFromLock + apply | ${ours.toFixed(1)} | ${(ours / count).toFixed(1)} | ${ratio.toFixed(2)}× |`,
    `| skillshelf install (no targets), process start to exit | ${whole.toFixed(1)} | ${(whole / count).toFixed(1)} | ${(whole / base).toFixed(2)}× |`,
    "",
    `Target: at most 2× the floor: ${ratio.toFixed(2)}× in process ${verdict(ratio <= 2)}, ${(whole / base).toFixed(2)}× as a command ${verdict(whole <= 2 * base)}.`,
    "",
    "A lock pinning every skill of one repository (`install <repo> --skill '*'`), restored into a fresh clone, beside a fresh install of the same skills from the repository, medians of paired rounds:",
    "",
    "| skills | fresh install ms | restore ms | restore / install |",
    "|---|---|---|---|",
    ...shared,
    "",
    "Target (issue 52): a restore at most 1.2× a fresh install of the same skills.",
  ].join("\n");
}

/**
 * A repository of `skills` skills installed whole into a project, then restored from its lock
 * into fresh clones beside fresh installs of it, side by side: one row of the table.
 */
async function oneRepository(options: BenchOptions, dir: string, skills: number): Promise<string> {
  rmSync(dir, { recursive: true, force: true });
  const url = skillsRepository(options.skills, join(dir, "repo"), skills);
  const install = async (environment: Environment) => {
    const plan = await planLifecycle({
      environment,
      operation: "install",
      targets: [url],
      skills: ["*"],
      scope: "project",
    });
    return applyLifecycle(plan);
  };
  const source = benchEnvironment(join(dir, "original"));
  await install(source);
  let round = 0;
  const times = await timeSideBySideAsync(
    {
      "fresh install": async () => {
        const result = await install(benchEnvironment(join(dir, `fresh-${round++}`)));
        if (result.committed !== skills) throw new Error("bench: a fresh install fell short");
      },
      restore: async () => {
        const clone = freshClone(source, join(dir, `clone-${round++}`));
        const result = await applyLifecycle(
          await restoreFromLock({ environment: clone, scope: "project" }),
        );
        if (result.committed !== skills) throw new Error("bench: a restore fell short");
      },
    },
    options.rounds,
  );
  const fresh = median(times["fresh install"] ?? []);
  const restored = median(times.restore ?? []);
  const ratio = restored / fresh;
  return `| ${skills} | ${fresh.toFixed(1)} | ${restored.toFixed(1)} | ${ratio.toFixed(2)}× ${verdict(ratio <= 1.2)} |`;
}

/**
 * A git repository at `repo` holding `count` real skills under `skills/` (`skill-000`, …), one
 * commit; its file URL.
 */
export function skillsRepository(skills: InstallableSkills, repo: string, count: number): string {
  for (let index = 0; index < count; index++) {
    const name = `skill-${String(index).padStart(3, "0")}`;
    skills.write(join(repo, "skills", name), name, index);
  }
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env: BENCH_GIT_ENV });
  git("init", "--quiet", "--initial-branch=main");
  git("add", "--all");
  git("commit", "--quiet", "-m", "skills");
  return pathToFileURL(repo).href;
}

// --- internal ---

/** A git repository holding package `pkg-<index>` at its root, one commit; its file URL. */
function gitPackage(skills: InstallableSkills, dir: string, index: number): string {
  const repo = writePackage(skills, join(dir, "repos", `pkg-${index}`), `pkg-${index}`, index);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env: BENCH_GIT_ENV });
  git("init", "--quiet", "--initial-branch=main");
  git("add", "--all");
  git("commit", "--quiet", "-m", "package");
  return pathToFileURL(repo).href;
}

/** A new project at `dir` holding only `source`'s project lock, same home. */
function freshClone(source: Environment, dir: string): Environment {
  mkdirSync(join(dir, ".skillshelf"), { recursive: true });
  copyFileSync(lockFilePath(source, "project"), join(dir, ".skillshelf", "lock.json"));
  return resolveEnvironment({ cwd: dir, home: source.home, configDir: source.configDir, env: {} });
}

/** What restoring one package must at least do: fetch the commit, copy the tree, hash its files. */
function physicalFloor(url: string, dir: string): void {
  const clone = `${dir}.git-clone`;
  execFileSync("git", ["clone", "--quiet", "--depth", "1", url, clone], { stdio: "ignore" });
  mkdirSync(dir, { recursive: true });
  const entries = readdirSync(clone).filter((name) => name !== ".git");
  execFileSync("cp", ["-r", ...entries.map((name) => join(clone, name)), dir]);
  sha256sumTree(dir);
  rmSync(clone, { recursive: true, force: true });
}
