// pnpm bench [--count N] [--rounds N] [--write]
// Generates a deterministic tree, checks that loadSkills and the raw-parse baseline pick identical
// winners, times them side by side in this one process, measures peak RSS in child processes, and
// prints the ratios (with --write, also into RESULTS.md).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { fastParseYamlMapping, splitFrontmatter } from "@skillshelf/core";
import { createSkillCache } from "@skillshelf/skills-loader";
import { rawParse, walkAndRead } from "./baseline.js";
import { generateSkillTree } from "./generate.js";
import { loadTree, median, timeSideBySide, winnersOf } from "./measure.js";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  // `pnpm bench -- --write` passes the separator through
  args: process.argv.slice(2).filter((arg) => arg !== "--"),
  options: {
    count: { type: "string", default: "10000" },
    rounds: { type: "string", default: "7" },
    write: { type: "boolean", default: false },
  },
});
const count = Number(values.count);
const rounds = Number(values.rounds);
const dir = join(here, "..", ".bench-tmp", `skills-${count}`);

console.log(`bench: generating ${count} skills over 3 roots in ${dir}`);
const tree = generateSkillTree(dir, count);
const fastShare = fastPathShare(tree.roots.map((root) => root.path));

const cache = createSkillCache();
const raw = winnersOf(rawParse(tree.roots));
const cold = loadTree(tree.roots);
loadTree(tree.roots, cache);
const cached = loadTree(tree.roots, cache);
const identical = sameMap(raw, winnersOf(cold)) && sameMap(raw, winnersOf(cached));
if (!identical) {
  console.error(
    "bench: loadSkills and raw-parse disagree on the winners; the figures would mean nothing",
  );
  process.exit(1);
}

console.log(`bench: timing ${rounds} rounds side by side`);
const times = timeSideBySide(
  {
    "raw-parse": () => rawParse(tree.roots),
    floor: () => walkAndRead(tree.roots),
    "loadSkills cold": () => loadTree(tree.roots),
    "loadSkills cached": () => loadTree(tree.roots, cache),
  },
  rounds,
);
const base = median(times["raw-parse"] ?? []);
const cliStartMs = cliListMs();
const rawMemory = peakRssMiB("raw-parse");
const loadMemory = peakRssMiB("loadSkills");

const rows = Object.entries(times).map(([name, list]) => {
  const ms = median(list);
  return `| ${name} | ${ms.toFixed(1)} | ${((ms * 1000) / tree.files).toFixed(1)} | ${(ms / base).toFixed(2)}× |`;
});
const coldRatio = median(times["loadSkills cold"] ?? []) / base;
const cachedRatio = median(times["loadSkills cached"] ?? []) / base;
const report = `${[
  `${tree.files} skills in 3 roots (flat, categories, two levels deep; ${cold.collisions.length} names overridden), median of ${rounds} rounds.`,
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, Node ${process.version}. Fast path took ${(fastShare * 100).toFixed(1)}% of the frontmatter blocks.`,
  "",
  "| variant | ms | µs per skill | vs raw-parse |",
  "|---|---|---|---|",
  ...rows,
  "",
  "| peak RSS (one load in a fresh process) | MiB |",
  "|---|---|",
  `| raw-parse (keeps bodies, as loaders do) | ${rawMemory.toFixed(0)} |`,
  `| loadSkills (bodies not kept) | ${loadMemory.toFixed(0)} |`,
  "",
  `\`skillshelf list\` on 100 skills, process start to exit (median of 9): ${cliStartMs.toFixed(0)} ms (target under 150 ms: ${verdict(cliStartMs < 150)}).`,
  "",
  `Winners identical to raw-parse: ${identical ? "yes" : "no"}.`,
  `Targets: cold ≤ 0.70× raw-parse: ${coldRatio.toFixed(2)}× ${verdict(coldRatio <= 0.7)}; cached ≤ 0.15×: ${cachedRatio.toFixed(2)}× ${verdict(cachedRatio <= 0.15)}; peak RSS below raw-parse: ${verdict(loadMemory < rawMemory)}.`,
].join("\n")}\n`;
console.log(`\n${report}`);

if (values.write) {
  const path = join(here, "..", "RESULTS.md");
  const previous = readFileSync(path, "utf8");
  const marker = "<!-- results -->";
  const head = previous.includes(marker)
    ? previous.slice(0, previous.indexOf(marker) + marker.length)
    : `# Benchmark results\n\n${marker}`;
  writeFileSync(path, `${head}\n\n${report}`);
  console.log(`bench: wrote ${path}`);
}

/** Median wall time of `skillshelf list` over a project of 100 skills, in a fresh process each time. */
function cliListMs(): number {
  const project = join(dir, "..", "cli-100");
  generateSkillTree(project, 100);
  const bin = join(
    dirname(createRequire(import.meta.url).resolve("@skillshelf/cli/package.json")),
    "dist",
    "cli.js",
  );
  const env = { PATH: process.env.PATH ?? "", HOME: join(project, "home") };
  const times = Array.from({ length: 9 }, () => {
    const start = process.hrtime.bigint();
    execFileSync(process.execPath, [bin, "list", "--cwd", join(project, "project")], {
      env,
      stdio: "ignore",
    });
    return Number(process.hrtime.bigint() - start) / 1e6;
  });
  return median(times);
}

/** Peak RSS of one load of the tree in a fresh process. */
function peakRssMiB(variant: "raw-parse" | "loadSkills"): number {
  const output = execFileSync(
    process.execPath,
    ["--expose-gc", join(here, "memory.js"), variant, dir],
    { encoding: "utf8" },
  );
  return (JSON.parse(output) as { maxRssMiB: number }).maxRssMiB;
}

function verdict(met: boolean): string {
  return met ? "met" : "NOT MET";
}

function sameMap(a: Map<string, string>, b: Map<string, string>): boolean {
  return a.size === b.size && [...a].every(([key, value]) => b.get(key) === value);
}

/** Share of generated frontmatter blocks the fast path reads without the full parser. */
function fastPathShare(rootPaths: readonly string[]): number {
  let accepted = 0;
  let total = 0;
  const visit = (path: string): void => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) visit(child);
      else if (entry.name === "SKILL.md") {
        const split = splitFrontmatter(readFileSync(child, "utf8"));
        total += 1;
        if (split.kind === "found" && fastParseYamlMapping(split.yaml) !== undefined) accepted += 1;
      }
    }
  };
  for (const root of rootPaths) visit(root);
  return total === 0 ? 0 : accepted / total;
}
