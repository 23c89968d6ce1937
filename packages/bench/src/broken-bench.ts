import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeCorpusTree } from "./corpus-tree.js";
import { type BenchOptions, median, medianRatio, timeSideBySide, verdict } from "./measure.js";

/** The share of skills whose frontmatter is broken, as the performance trial found it. */
const BROKEN_SHARE = 0.21;

/**
 * A library with broken frontmatter loads as fast as a valid one: 1,000 real skills (the
 * corpus's, repeated under new names) loaded cold in a fresh process, beside the same tree where
 * 21% of the skills have a plain description broken the way real ones are (`Use when: …`, a colon
 * YAML cannot read unquoted). Target: at most 1.2× the valid tree's time.
 */
export function runBrokenBench(options: BenchOptions): string {
  const count = Math.max(10, Math.min(1_000, Math.round(options.count / 10)));
  const valid = join(options.workDir, "frontmatter-valid");
  const broken = join(options.workDir, "frontmatter-broken");
  for (const dir of [valid, broken]) rmSync(dir, { recursive: true, force: true });
  const tree = writeCorpusTree(valid, count);
  writeCorpusTree(broken, count);
  const breaks = breakDescriptions(broken, Math.round(count * BROKEN_SHARE));
  console.log(`bench: loading ${count} real skills, ${breaks} broken, ${options.rounds} rounds`);
  const load = (dir: string) => () =>
    execFileSync(process.execPath, [join(options.binDir, "load-once.js"), dir]);
  const times = timeSideBySide({ valid: load(valid), broken: load(broken) }, options.rounds);
  const ratio = medianRatio(times.broken ?? [], times.valid ?? []);
  return [
    "## Broken frontmatter",
    "",
    `\`loadSkills\` of ${tree.skills} real skills (${tree.files} files, ${(tree.bytes / 1e6).toFixed(1)} MB), cold in a fresh process (Node's start included), beside the same tree with ${breaks} descriptions (${Math.round((breaks / count) * 100)}%) broken as real ones are (\`Use when: …\`); medians of ${options.rounds} rounds: ${median(times.broken ?? []).toFixed(0)} ms broken against ${median(times.valid ?? []).toFixed(0)} ms valid; median ratio ${ratio.toFixed(2)}×.`,
    `Target: at most 1.2× the valid tree: ${verdict(ratio <= 1.2)}.`,
  ].join("\n");
}

// --- internal ---

/**
 * Break the plain one-line description of `wanted` skills under `dir`, spread evenly over those
 * that have one, by writing `Use when: ` before it (quoted and block descriptions stay as they
 * are). The number broken.
 */
function breakDescriptions(dir: string, wanted: number): number {
  const plain = /^description: (?=[^"'|>\s])/m;
  const candidates = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith("SKILL.md"))
    .sort()
    .map((path) => join(dir, path))
    .filter((path) => plain.test(readFileSync(path, "utf8")));
  const every = Math.max(1, Math.floor(candidates.length / Math.max(1, wanted)));
  const chosen = candidates.filter((_, index) => index % every === 0).slice(0, wanted);
  for (const path of chosen)
    writeFileSync(path, readFileSync(path, "utf8").replace(plain, "description: Use when: "));
  return chosen.length;
}
