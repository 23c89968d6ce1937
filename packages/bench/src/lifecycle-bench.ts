import { join } from "node:path";
import type { Environment } from "@skillshelf/core";
import { readInventory } from "@skillshelf/inventory";
import {
  applyLifecycle,
  type LifecyclePlan,
  planLifecycle,
  releasePlan,
} from "@skillshelf/lifecycle";
import { createScopeCache } from "@skillshelf/store";
import type { InstallableSkills } from "./corpus-tree.js";
import { benchEnvironment, installedPackages, writePackage } from "./installed.js";
import { type BenchOptions, median, medianRatio, timeSideBySideAsync, verdict } from "./measure.js";

const SIZES = [100, 1_000] as const;
const INSTALLS = 200;

/**
 * The lifecycle benchmark. First `planLifecycle` (an install of one new folder, a disable of one
 * copy) and `readInventory` over 100 and 1,000 installed packages, side by side: 10× the packages
 * may cost at most 11× (linear), and the output stays bounded. Then 200 installs of
 * small packages one after another through `planLifecycle` + `applyLifecycle`: the last 50 no
 * slower than 1.2× the first 50.
 */
export async function runLifecycleBench(options: BenchOptions): Promise<string> {
  // 100 and 1,000 packages, a tenth of that when a smoke run asks for a smaller tree
  const scale = Math.min(1, options.count / SIZES[1]);
  const sizes = SIZES.map((size) => Math.max(2, Math.round(size * scale)));
  const variants: Record<string, () => Promise<unknown>> = {};
  const shapes: string[] = [];
  for (const size of sizes) {
    const dir = join(options.workDir, "lifecycle", `installed-${size}`);
    const environment = installedPackages(options.skills, dir, size);
    const folder = writePackage(options.skills, join(dir, "new"), "new-package", size);
    const install = () =>
      planned({ environment, operation: "install", targets: [folder] }, "install");
    const disable = () =>
      planned({ environment, operation: "disable", targets: ["pkg-0"] }, "disable");
    const inventory = async () => readInventory({ environment });
    variants[`planLifecycle install, ${size} installed`] = install;
    variants[`planLifecycle disable, ${size} installed`] = disable;
    variants[`readInventory, ${size} installed`] = inventory;
    const read = await inventory();
    shapes.push(
      `| ${size} | ${(await install()).length} | ${(await disable()).length} | ${read.copies.length}${read.truncated.copies ? " (capped)" : ""} | ${read.resources.length}${read.truncated.resources ? " (capped)" : ""} |`,
    );
  }
  console.log(`bench: timing plans and inventories, ${options.rounds} rounds side by side`);
  const times = await timeSideBySideAsync(variants, options.rounds);
  const ms = (label: string) => median(times[label] ?? []);
  const [small, large] = sizes as [number, number];
  const growth = (what: string) =>
    ms(`${what}, ${large} installed`) / ms(`${what}, ${small} installed`);
  const measured = ["planLifecycle install", "planLifecycle disable", "readInventory"];
  const allowed = 1.1 * (large / small);
  const installs = await timeInstalls(options, Math.min(INSTALLS, Math.max(8, options.count)));
  return [
    "## Planning and the inventory",
    "",
    `${small} and ${large} installed packages in the user scope, each holding one real skill (at ${large}: ${options.skills.describe(large)}); median of ${options.rounds} rounds.`,
    "",
    "| variant | ms |",
    "|---|---|",
    ...Object.keys(variants).map((label) => `| ${label} | ${ms(label).toFixed(1)} |`),
    "",
    "What they return (plans as canonical JSON bytes; inventory rows kept):",
    "",
    "| installed | install plan | disable plan | copies | resources |",
    "|---|---|---|---|---|",
    ...shapes,
    "",
    `Growth for ${large / small}× the packages: ${measured.map((what) => `${what} ${growth(what).toFixed(1)}×`).join(", ")}.`,
    `Target: at most ${allowed.toFixed(0)}× (linear), output bounded: ${verdict(measured.every((what) => growth(what) <= allowed))}.`,
    "",
    installs,
  ].join("\n");
}

// --- internal ---

/** Plan, check the plan can be applied, release it; its canonical JSON. */
async function planned(
  request: Parameters<typeof planLifecycle>[0],
  what: string,
): Promise<string> {
  const plan = await planLifecycle(request);
  releasePlan(plan);
  if (!plan.applicable) throw new Error(`bench: the ${what} plan was refused: ${refusals(plan)}`);
  return JSON.stringify(plan);
}

function refusals(plan: LifecyclePlan): string {
  return plan.steps.map((step) => `${step.ref} ${step.refusal?.code}`).join(", ");
}

/**
 * `count` installs one after another into one fresh scope, each planned and applied: the first
 * quarter of one such series against the last quarter of another, timed side by side. The late
 * series first makes its first three quarters (untimed); then one install of each series is
 * timed in turn, the order rotated every round, so a slow moment of the machine falls on both
 * alike. The ratio is the median of each round's ratio; repeated with up to five pairs of fresh
 * scopes, the verdict is the median of the pairs' ratios.
 */
async function timeInstalls(options: BenchOptions, count: number): Promise<string> {
  const pairs = Math.min(5, options.rounds);
  const quarter = Math.floor(count / 4);
  console.log(`bench: timing ${count} installs one after another, ${pairs} pairs of series`);
  const measured: { first: number; last: number; ratio: number }[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    const dir = join(options.workDir, "lifecycle", `installs-${pair}`);
    const early = installSeries(options.skills, join(dir, "early"), count);
    const late = installSeries(options.skills, join(dir, "late"), count);
    for (let index = 0; index < count - quarter; index++) await late();
    // the warm-up call of each is its series' first install of the quarter, untimed
    const times = await timeSideBySideAsync({ first: early, last: late }, quarter - 1);
    const [first, last] = [times.first ?? [], times.last ?? []];
    measured.push({ first: median(first), last: median(last), ratio: medianRatio(last, first) });
  }
  const first = median(measured.map((run) => run.first));
  const last = median(measured.map((run) => run.last));
  const ratio = median(measured.map((run) => run.ratio));
  return [
    `${count} installs of one-skill packages from local folders into one scope, each planned and applied (verified after the commit): the last ${quarter - 1} of one series (its first ${count - quarter + 1} untimed) beside the installs 2 to ${quarter} of another (its first untimed), one of each in turn; ${pairs} pairs of fresh scopes, the median over them of each side's median, and of each pair's median ratio:`,
    "",
    "| installs | ms per install |",
    "|---|---|",
    `| first ${quarter} | ${first.toFixed(1)} |`,
    `| last ${quarter} | ${last.toFixed(1)} |`,
    "",
    `Each pair, last against first: ${measured.map((run) => `${run.ratio.toFixed(2)}×`).join(", ")}.`,
    `Target: the last ${quarter} at most 1.2× the first ${quarter} (median of the pairs' ratios): ${ratio.toFixed(2)}× ${verdict(ratio <= 1.2)}.`,
  ].join("\n");
}

/**
 * A fresh scope under `dir` and `count` package folders: each call plans and applies the install
 * of the next one (refusing to go past the last), with one scope cache for all, as a host would.
 */
function installSeries(skills: InstallableSkills, dir: string, count: number): () => Promise<void> {
  const environment: Environment = benchEnvironment(dir);
  const folders = Array.from({ length: count }, (_, index) =>
    writePackage(skills, join(dir, "sources", `pkg-${index}`), `pkg-${index}`, index),
  );
  const cache = createScopeCache();
  let next = 0;
  return async () => {
    const folder = folders[next++];
    if (folder === undefined) throw new Error(`bench: a series has only ${count} packages`);
    const plan = await planLifecycle({
      environment,
      operation: "install",
      targets: [folder],
      cache,
    });
    if (!plan.applicable) throw new Error(`bench: install refused: ${refusals(plan)}`);
    const [outcome] = (await applyLifecycle(plan, { cache })).outcomes;
    if (outcome?.status !== "committed" || outcome.verification?.ok !== true)
      throw new Error(`bench: install of ${folder} did not verify`);
  };
}
