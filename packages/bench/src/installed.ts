import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AUDIT_RULES_VERSION } from "@skillshelf/audit";
import { digestTree, type Environment, resolveEnvironment } from "@skillshelf/core";
import { observeCopyFacts } from "@skillshelf/store";
import { installPackage } from "@skillshelf/store/writers";
import type { InstallableSkills } from "./corpus-tree.js";

/** A fresh home and project under `dir`, nothing from this machine. */
export function benchEnvironment(dir: string): Environment {
  rmSync(dir, { recursive: true, force: true });
  const home = join(dir, "home");
  const cwd = join(dir, "project");
  mkdirSync(join(cwd, ".skillshelf"), { recursive: true });
  return resolveEnvironment({ home, cwd, configDir: join(home, ".config", "skillshelf"), env: {} });
}

/**
 * Write package `id` of our format into `dir`: a manifest and one real skill of the corpus (the
 * `index`th installable one, taken in turn, named `<id>-skill`); returns `dir`.
 */
export function writePackage(
  skills: InstallableSkills,
  dir: string,
  id: string,
  index: number,
): string {
  mkdirSync(join(dir, "skills"), { recursive: true });
  writeFileSync(
    join(dir, "plugin.json"),
    JSON.stringify({
      name: id,
      version: "1.0.0",
      description: `Package ${index}.`,
      extensions: { skillshelf: { manifestVersion: 1, kind: "plugin" } },
    }),
  );
  skills.write(join(dir, "skills", `${id}-skill`), `${id}-skill`, index);
  return dir;
}

/**
 * A fresh environment under `dir` whose user scope holds `count` packages `pkg-<n>` of one real
 * skill each, installed through the store's writer with the clean audit verdict an install records
 * (the setup, not what is timed).
 */
export function installedPackages(
  skills: InstallableSkills,
  dir: string,
  count: number,
): Environment {
  const environment = benchEnvironment(dir);
  console.log(`bench: installing ${count} packages into ${dir}`);
  for (let index = 0; index < count; index++) {
    const id = `pkg-${index}`;
    const staged = writePackage(skills, join(dir, "staged", id), id, index);
    installPackage({
      environment,
      scope: "user",
      staged: { dir: staged, digest: digestTree(staged).digest },
      origin: { source: { type: "local", path: staged } },
      reviewed: observeCopyFacts({ environment, scope: "user", id }),
      // the verdict an install of today records (the generated skills are clean)
      audit: { rules: AUDIT_RULES_VERSION },
    });
  }
  return environment;
}

/** Git for the benchmarks' own repositories: no user or system config, a fixed identity. */
export const BENCH_GIT_ENV: Readonly<Record<string, string | undefined>> = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.com",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.com",
};
