import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packedWithDependencies } from "@skillshelf/test-utils";
import { build } from "esbuild";
import { writeCorpusTree } from "./corpus-tree.js";
import { type BenchOptions, median, medianRatio, verdict } from "./measure.js";

/** The read surface a harness embeds; each is installed alone for its size. */
const PACKAGES = ["core", "skills-loader", "prompts-loader", "catalog-view", "resources"] as const;

/** A harness loading one root cold, timing `loadSkills` alone inside the process. */
const HARNESS = `import { loadSkills } from "@skillshelf/skills-loader";
const root = process.argv[2];
const start = performance.now();
const { items } = loadSkills({ cwd: root, home: root, env: {}, roots: [{ path: root, scope: "user", source: "corpus", origin: "corpus", precedence: 1, trust: "trusted", containment: root }] });
console.log(JSON.stringify({ ms: performance.now() - start, skills: items.length }));
`;

/**
 * Issue 57's benchmark: a harness installed from the packed tarballs loads 1,000 real skills cold,
 * once from `node_modules` and once from an esbuild bundle of itself in a folder of its own,
 * fresh processes side by side (target: the bundle at most 1.05×); then the installed size of each
 * read-surface package alone (`npm install` of its tarball into an empty project).
 */
export async function runBundleBench(options: BenchOptions): Promise<string> {
  const dir = join(options.workDir, "bundle");
  rmSync(dir, { recursive: true, force: true });
  const packs = join(dir, "packs");
  const repository = join(options.binDir, "..", "..", "..");
  execFileSync(process.execPath, [join(repository, "scripts", "pack-packages.mjs"), packs], {
    stdio: "ignore",
  });
  // a tarball names its workspace dependencies by version: theirs are installed beside it
  const tarballs = (name: string) =>
    packedWithDependencies(packs, join(repository, "packages"), [name]);
  const harness = project(join(dir, "harness"), tarballs("skills-loader"));
  writeFileSync(join(harness, "harness.mjs"), HARNESS);
  const alone = join(dir, "alone");
  mkdirSync(alone, { recursive: true });
  await buildBundle(join(harness, "harness.mjs"), join(alone, "harness.mjs"));
  const skills = Math.max(10, Math.min(1_000, Math.round(options.count / 10)));
  const tree = writeCorpusTree(join(dir, "skills"), skills, { distinctNames: true });
  const runs = options.rounds * 3;
  console.log(`bench: cold loads from node_modules and from a bundle, ${runs} rounds side by side`);
  const installed: number[] = [];
  const bundled: number[] = [];
  for (let round = 0; round < runs; round++) {
    installed.push(loadMs(harness, join(dir, "skills")));
    bundled.push(loadMs(alone, join(dir, "skills")));
  }
  const ratio = medianRatio(bundled, installed);
  const sizes = PACKAGES.map((name) => {
    const alonePackage = project(join(dir, `size-${name}`), tarballs(name));
    return { name, ...installedSize(alonePackage) };
  });
  return [
    "## Bundled harnesses",
    "",
    `A harness calling \`loadSkills\` on ${tree.skills} real skills (the corpus's, repeated under new names: ${tree.files} files, ${(tree.bytes / 1e6).toFixed(1)} MB), cold in a fresh process each time, the load timed inside it: installed from the packed tarballs (\`node_modules\`) and bundled by esbuild (ES module output, nothing configured) into a folder of its own; medians of ${runs} rounds side by side: ${median(installed).toFixed(0)} ms from \`node_modules\`, ${median(bundled).toFixed(0)} ms bundled, median ratio ${ratio.toFixed(2)}×. Target: at most 1.05×: ${verdict(ratio <= 1.05)}.`,
    "",
    "Each package installed alone from its tarball into an empty project:",
    "",
    "| package | packages installed | MB |",
    "|---|---|---|",
    ...sizes.map(
      (row) => `| @skillshelf/${row.name} | ${row.packages} | ${(row.bytes / 1e6).toFixed(1)} |`,
    ),
  ].join("\n");
}

// --- internal ---

/** An empty project under `dir` with `tarballs` installed by npm. */
function project(dir: string, tarballs: readonly string[]): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), '{ "name": "bench-harness", "private": true }\n');
  execFileSync("npm", ["install", "--no-audit", "--no-fund", ...tarballs], {
    cwd: dir,
    stdio: "ignore",
    env: { ...process.env, npm_config_loglevel: "error" },
  });
  return dir;
}

/** esbuild's bundle of `entry` for Node, as a harness ships one: nothing configured. */
async function buildBundle(entry: string, out: string): Promise<void> {
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: out,
    logLevel: "silent",
  });
}

/** One cold load in a fresh process: the time `loadSkills` took inside it. */
function loadMs(cwd: string, root: string): number {
  const child = spawnSync(process.execPath, ["harness.mjs", root], { cwd, encoding: "utf8" });
  if (child.status !== 0) throw new Error(`bench: the harness failed in ${cwd}: ${child.stderr}`);
  return (JSON.parse(child.stdout) as { ms: number }).ms;
}

/** How many packages `dir`'s node_modules holds, and their bytes on disk. */
function installedSize(dir: string): { packages: number; bytes: number } {
  const listed = spawnSync("npm", ["ls", "--all", "--parseable"], { cwd: dir, encoding: "utf8" });
  const packages = listed.stdout.trim().split("\n").length - 1;
  const bytes = Number(
    execFileSync("du", ["-sb", join(dir, "node_modules")], { encoding: "utf8" }).split("\t")[0],
  );
  return { packages, bytes };
}
