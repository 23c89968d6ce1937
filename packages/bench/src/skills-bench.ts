import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fastParseYamlMapping, splitFrontmatter } from "@skillshelf/core";
import { createSkillCache } from "@skillshelf/skills-loader";
import { rawParse, walkAndRead, walkAndReadFrontmatter } from "./baseline.js";
import { cliBin } from "./cli-bench.js";
import { writeCorpusTree } from "./corpus-tree.js";
import { generateSkillTree, type SkillLayout } from "./generate.js";
import {
  type BenchOptions,
  loadTree,
  median,
  medianRatio,
  ratioRows,
  timeSideBySide,
  verdict,
  winnersOf,
} from "./measure.js";

/**
 * The skills benchmark: lay real skills of the corpus out as a deterministic tree, check that loadSkills and the raw-parse
 * baseline pick identical winners, time them side by side, measure peak RSS in fresh processes
 * and `skillshelf list` start-up, and return the report as markdown.
 */
export function runSkillsBench(options: BenchOptions): string {
  const { count, rounds } = options;
  const layoutTrees = generateLayoutTrees(options);
  const dir = join(options.workDir, `skills-${count}`);
  console.log(`bench: generating ${count} skills over 3 roots in ${dir}`);
  const tree = generateSkillTree(dir, count, 1, "mixed", options.skills.plain);
  // every tree is generated before one wait, not one wait each
  waitPastRacyMargin();
  // first, on a heap holding none of the larger tree's cache and results below
  const layouts = layoutRows(options, layoutTrees);
  const fastShare = fastPathShare(tree.roots.map((root) => root.path));

  const cache = createSkillCache();
  const raw = winnersOf(rawParse(tree.roots));
  const cold = loadTree(tree.roots);
  loadTree(tree.roots, cache);
  const identical =
    sameMap(raw, winnersOf(cold)) && sameMap(raw, winnersOf(loadTree(tree.roots, cache)));
  if (!identical)
    throw new Error(
      "bench: loadSkills and raw-parse disagree on the winners; the figures would mean nothing",
    );

  console.log(`bench: timing skills, ${rounds} rounds side by side`);
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
  const coldRatio = median(times["loadSkills cold"] ?? []) / base;
  const cachedRatio = median(times["loadSkills cached"] ?? []) / base;
  const rawMemory = peakRssMiB(options.binDir, "raw-parse", dir);
  const loadMemory = peakRssMiB(options.binDir, "loadSkills", dir);
  const cli = cliListMs(options, Math.max(3, options.rounds * 3));
  return [
    "## Skills",
    "",
    `${options.skills.plain.describe(tree.files)} in 3 roots (flat, categories, two levels deep; ${cold.collisions.length} names overridden), median of ${rounds} rounds. Fast path took ${(fastShare * 100).toFixed(1)}% of the frontmatter blocks.`,
    "",
    "| variant | ms | µs per skill | vs raw-parse |",
    "|---|---|---|---|",
    ...ratioRows(times, "raw-parse", tree.files),
    "",
    "| peak RSS (one load in a fresh process) | MiB |",
    "|---|---|",
    `| raw-parse (keeps bodies, as loaders do) | ${rawMemory.toFixed(0)} |`,
    `| loadSkills (bodies not kept) | ${loadMemory.toFixed(0)} |`,
    "",
    `\`skillshelf list\` on 100 real skills of the same kind, process start to exit, medians of ${cli.runs} rounds, each round running it again over the settled tree (what it kept of its last run taken), once with nothing kept (a cache folder of its own) and a bare \`node -e 0\`: ${cli.list.toFixed(0)} ms, ${cli.unkept.toFixed(0)} ms with nothing kept, \`node -e 0\` ${cli.node.toFixed(0)} ms. Against \`node -e 0\` (median of each round's ratio): ${cli.ratio.toFixed(2)}×, ${cli.unkeptRatio.toFixed(2)}× with nothing kept. Targets: under 150 ms: ${verdict(cli.list < 150)}; at most 2.5× \`node -e 0\` (issue 31, item 5): ${verdict(cli.ratio <= 2.5)}.`,
    "",
    `Winners identical to raw-parse: ${identical ? "yes" : "no"}.`,
    `Targets: cold ≤ 0.70× raw-parse: ${coldRatio.toFixed(2)}× ${verdict(coldRatio <= 0.7)}; cached ≤ 0.15×: ${cachedRatio.toFixed(2)}× ${verdict(cachedRatio <= 0.15)}; peak RSS below raw-parse: ${verdict(loadMemory < rawMemory)}.`,
    "",
    "### Frontmatter-only reads, flat and nested",
    "",
    `The same trees with every root flat, or every root two category levels deep, and every skill of the corpus (loadable or not, repeated under new names, in one root; the loader refuses the few without a valid name or description, which raw-parse keeps); beside raw-parse and the floor, the frontmatter-only floor: walking and reading each file's first 4 KiB, more only until the closing \`---\` line (no hashing, no parsing). Medians of ${rounds} rounds, ms; winners identical to raw-parse in every tree but the last.`,
    "",
    "| skills | layout | raw-parse | floor | frontmatter floor | cold | cached | cold / raw-parse | cold / frontmatter floor | cached / raw-parse |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...layouts.map(
      (row) =>
        `| ${row.skills} | ${row.layout} | ${row.raw.toFixed(1)} | ${row.floor.toFixed(1)} | ${row.headFloor.toFixed(1)} | ${row.cold.toFixed(1)} | ${row.cached.toFixed(1)} | ${(row.cold / row.raw).toFixed(2)}× | ${(row.cold / row.headFloor).toFixed(2)}× | ${(row.cached / row.raw).toFixed(2)}× |`,
    ),
    "",
    `Targets (issue 31): cold ≤ 0.30× raw-parse: ${verdict(layouts.every((row) => row.cold <= 0.3 * row.raw))}; cold ≤ 1.3× the frontmatter-only floor: ${verdict(layouts.every((row) => row.cold <= 1.3 * row.headFloor))}; cached ≤ 0.08× raw-parse: ${verdict(layouts.every((row) => row.cached <= 0.08 * row.raw))}.`,
  ].join("\n");
}

interface LayoutRow {
  readonly skills: number;
  /** A generated layout, or `real`: the corpus's skills in one root. */
  readonly layout: SkillLayout | "real";
  readonly raw: number;
  readonly floor: number;
  readonly headFloor: number;
  readonly cold: number;
  readonly cached: number;
}

/** Untimed calls of each variant before the rounds: the cached load of 1,000 skills settles after about ten. */
const LAYOUT_WARMUPS = 10;

/**
 * The trees of `layoutRows`: a tenth of `count` and `count` skills, flat and nested; then up to
 * 1,000 real skills (the corpus's, repeated, each answering to its folder's name) in one root.
 */
function generateLayoutTrees(options: BenchOptions) {
  const sizes = [...new Set([Math.max(10, Math.round(options.count / 10)), options.count])];
  const generated = sizes.flatMap((size) =>
    (["flat", "nested"] as const).map((layout) => {
      const dir = join(options.workDir, `skills-${layout}-${size}`);
      return {
        layout: layout as LayoutRow["layout"],
        tree: generateSkillTree(dir, size, 1, layout, options.skills.plain),
        dir,
      };
    }),
  );
  const size = Math.max(10, Math.min(1_000, Math.round(options.count / 10)));
  const dir = join(options.workDir, `skills-real-${size}`);
  rmSync(dir, { recursive: true, force: true });
  writeCorpusTree(dir, size, { distinctNames: true });
  const root = {
    path: dir,
    scope: "user" as const,
    source: "skillshelf",
    origin: "skillshelf-user",
    precedence: 30,
    trust: "trusted" as const,
    containment: dir,
  };
  return [...generated, { layout: "real" as const, tree: { roots: [root], files: size }, dir }];
}

/** The loader cold and cached beside the floors, over each tree of `generateLayoutTrees`. */
function layoutRows(
  options: BenchOptions,
  trees: ReturnType<typeof generateLayoutTrees>,
): LayoutRow[] {
  return trees.map(({ layout, tree, dir }) => {
    console.log(`bench: ${tree.files} skills, ${layout}, ${options.rounds} rounds side by side`);
    const cache = createSkillCache();
    loadTree(tree.roots, cache);
    const raw = winnersOf(rawParse(tree.roots));
    // real skills include some the loader refuses (no description, a name that is not one)
    if (layout !== "real" && !sameMap(raw, winnersOf(loadTree(tree.roots))))
      throw new Error(`bench: loadSkills and raw-parse disagree on the winners of ${dir}`);
    const times = timeSideBySide(
      {
        raw: () => rawParse(tree.roots),
        floor: () => walkAndRead(tree.roots),
        headFloor: () => walkAndReadFrontmatter(tree.roots),
        cold: () => loadTree(tree.roots),
        cached: () => loadTree(tree.roots, cache),
      },
      options.rounds,
      1,
      LAYOUT_WARMUPS,
    );
    const of = (name: string) => median(times[name] ?? []);
    return {
      skills: tree.files,
      layout,
      raw: of("raw"),
      floor: of("floor"),
      headFloor: of("headFloor"),
      cold: of("cold"),
      cached: of("cached"),
    };
  });
}

// --- internal ---

/**
 * A cache keeps a folder's listing once the folder is two seconds unchanged (core's margin for a
 * change within one tick of the file system's clock): a tree generated a moment ago is waited out
 * before a cache is warmed, so "cached" measures the repeated load over a tree nobody changed
 * lately, as a person's or a host's is, not one written during the first rounds.
 */
function waitPastRacyMargin(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_100);
}

/**
 * Wall times of `skillshelf list` over 100 skills, in a fresh process each time: run again over a
 * settled tree (what it kept of its last run taken: the way a person runs it), and with nothing
 * kept (a cache folder of its own each run: the first run after every file changed), each beside
 * a bare `node -e 0` run in the same round, so a slow phase of the machine shows in all three.
 */
function cliListMs(
  options: BenchOptions,
  runs: number,
): {
  runs: number;
  list: number;
  unkept: number;
  node: number;
  ratio: number;
  unkeptRatio: number;
} {
  const project = join(options.workDir, "cli-100");
  generateSkillTree(project, 100, 1, "mixed", options.skills.plain);
  const bin = cliBin();
  const home = join(project, "home");
  const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CACHE_HOME: join(home, ".cache") };
  const timed = (args: string[], cache = env.XDG_CACHE_HOME) => {
    const start = process.hrtime.bigint();
    execFileSync(process.execPath, args, {
      env: { ...env, XDG_CACHE_HOME: cache },
      stdio: "ignore",
    });
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  const list = [bin, "list", "--cwd", join(project, "project")];
  waitPastRacyMargin();
  timed(list);
  const kept: number[] = [];
  const unkept: number[] = [];
  const node: number[] = [];
  for (let run = 0; run < runs; run++) {
    kept.push(timed(list));
    unkept.push(timed(list, mkdtempSync(join(project, "cache-"))));
    node.push(timed(["-e", "0"]));
  }
  return {
    runs,
    list: median(kept),
    unkept: median(unkept),
    node: median(node),
    ratio: medianRatio(kept, node),
    unkeptRatio: medianRatio(unkept, node),
  };
}

/** Peak RSS of one load of the tree in a fresh process. */
function peakRssMiB(binDir: string, variant: "raw-parse" | "loadSkills", dir: string): number {
  const output = execFileSync(
    process.execPath,
    ["--expose-gc", join(binDir, "memory.js"), variant, dir],
    { encoding: "utf8" },
  );
  return (JSON.parse(output) as { maxRssMiB: number }).maxRssMiB;
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
