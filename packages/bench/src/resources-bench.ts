import { join } from "node:path";
import { createResources } from "@skillshelf/resources";
import { defaultSkillRoots, loadSkills } from "@skillshelf/skills-loader";
import { readPackageSnapshot, snapshotRoots } from "@skillshelf/store";
import { installedPackages } from "./installed.js";
import { type BenchOptions, median, timeSideBySide, verdict } from "./measure.js";

const PACKAGES = 1_000;

/**
 * The resources benchmark: 1,000 installed packages of one real skill each, read through
 * `createResources` (one snapshot, store's roots, the loaders, package references checked) beside
 * the loaders alone over the same roots plus one snapshot, in the same run. Target: at most 1.3×,
 * and each tree digested once per pass.
 */
export function runResourcesBench(options: BenchOptions): string {
  // 1,000 packages, fewer when a smoke run asks for a smaller tree
  const count = Math.min(PACKAGES, options.count);
  const environment = installedPackages(options.skills, join(options.workDir, "resources"), count);
  const settings = { home: environment.home, configDir: environment.configDir, env: {} };
  const throughResources = () => {
    const resources = createResources({ environment: settings });
    const skills = resources.read(environment.cwd).load("skill");
    return { count: skills.items.length, digested: resources.stats().treesDigested };
  };
  const loadersAlone = () => {
    const snapshot = readPackageSnapshot(environment);
    return loadSkills({
      ...environment,
      roots: [...snapshotRoots(snapshot, "skill"), ...defaultSkillRoots(environment)],
    }).items.length;
  };
  const once = throughResources();
  if (once.count !== count || loadersAlone() !== count)
    throw new Error(`bench: expected ${count} skills from the installed packages`);
  console.log(`bench: timing reads through resources, ${options.rounds} rounds side by side`);
  const times = timeSideBySide(
    { "resources (one pass)": throughResources, "loaders + one snapshot": loadersAlone },
    options.rounds,
  );
  const ours = median(times["resources (one pass)"] ?? []);
  const base = median(times["loaders + one snapshot"] ?? []);
  const ratio = ours / base;
  return [
    "## Reading through resources",
    "",
    `${count} installed packages in the user scope, one real skill in each: ${options.skills.describe(count)}; median of ${options.rounds} rounds.`,
    "",
    "| variant | ms | vs loaders |",
    "|---|---|---|",
    `| loaders + one snapshot | ${base.toFixed(1)} | 1.00× |`,
    `| resources (one pass) | ${ours.toFixed(1)} | ${ratio.toFixed(2)}× |`,
    "",
    `Trees digested in one pass: ${once.digested} of ${count}.`,
    `Targets: at most 1.3× the loaders alone: ${ratio.toFixed(2)}× ${verdict(ratio <= 1.3)}; each tree digested once per pass: ${verdict(once.digested === count)}.`,
  ].join("\n");
}
