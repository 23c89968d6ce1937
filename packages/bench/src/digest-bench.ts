import { execFileSync } from "node:child_process";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { digestTree } from "@skillshelf/core";
import { writeCorpusTree } from "./corpus-tree.js";
import { type BenchOptions, median, timeSideBySide, verdict } from "./measure.js";

/** Skills enough for about 5,000 files: the corpus's hold about two each. */
const SKILLS = 2_500;

/**
 * The tree digest benchmark: `digestTree` over one package holding 2,500 real skills (the corpus's,
 * repeated under new names: about 5,000 files and 47 MB, their sizes and modes as they are) beside
 * `sha256sum` given the same files, in one run. Target: at most 1.0×.
 */
export function runDigestBench(options: BenchOptions): string {
  const skills = Math.min(SKILLS, options.count);
  const dir = join(options.workDir, "digest");
  rmSync(dir, { recursive: true, force: true });
  const tree = writeCorpusTree(join(dir, "skills"), skills, { distinctNames: true });
  const relative = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((path) =>
    statSync(join(dir, path)).isFile(),
  );
  const expected = digestTree(dir);
  if (expected.files !== tree.files || expected.bytes !== tree.bytes)
    throw new Error(`bench: digested ${expected.files} files of ${expected.bytes} bytes`);
  console.log(`bench: timing tree digests, ${options.rounds} rounds side by side`);
  const times = timeSideBySide(
    {
      sha256sum: () =>
        execFileSync("sha256sum", ["--", ...relative], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }),
      digestTree: () => {
        if (digestTree(dir).digest !== expected.digest) throw new Error("bench: digest changed");
      },
    },
    options.rounds,
  );
  const base = median(times.sha256sum ?? []);
  const ours = median(times.digestTree ?? []);
  const ratio = ours / base;
  return [
    "## Tree digest",
    "",
    `One package of ${skills} real skills (the corpus's, repeated under new names: ${tree.files} files, ${(tree.bytes / 1e6).toFixed(1)} MB); \`sha256sum\` is one process given every file; median of ${options.rounds} rounds.`,
    "",
    "| variant | ms | MiB/s | vs sha256sum |",
    "|---|---|---|---|",
    `| sha256sum | ${base.toFixed(1)} | ${throughput(tree.bytes, base)} | 1.00× |`,
    `| digestTree | ${ours.toFixed(1)} | ${throughput(tree.bytes, ours)} | ${ratio.toFixed(2)}× |`,
    "",
    `Target: at most 1.0× sha256sum: ${ratio.toFixed(2)}× ${verdict(ratio <= 1.0)}.`,
  ].join("\n");
}

// --- internal ---

function throughput(bytes: number, ms: number): string {
  return (bytes / 1024 / 1024 / (ms / 1000)).toFixed(0);
}
