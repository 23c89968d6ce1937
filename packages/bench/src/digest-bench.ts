import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { digestTree } from "@skillshelf/core";
import { type BenchOptions, median, timeSideBySide, verdict } from "./measure.js";

const FILES = 5_000;
const BYTES = 50 * 1024 * 1024;
const PER_FOLDER = 100;

/**
 * The tree digest benchmark: `digestTree` over a package of 5,000 files and 50 MB in 50 folders
 * (sizes spread from 100 bytes to 20 KiB, every tenth file executable) beside `sha256sum` given
 * the same files, in one run. Target: at most 1.0×.
 */
export function runDigestBench(options: BenchOptions): string {
  const files = Math.min(FILES, options.count);
  const bytes = Math.round((BYTES * files) / FILES);
  const dir = join(options.workDir, "digest");
  const relative = writeTree(dir, files, bytes);
  const expected = digestTree(dir);
  if (expected.files !== files || expected.bytes !== bytes)
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
    `One package of ${files} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB in ${Math.ceil(files / PER_FOLDER)} folders (every tenth file executable); \`sha256sum\` is one process given every file; median of ${options.rounds} rounds.`,
    "",
    "| variant | ms | MiB/s | vs sha256sum |",
    "|---|---|---|---|",
    `| sha256sum | ${base.toFixed(1)} | ${throughput(bytes, base)} | 1.00× |`,
    `| digestTree | ${ours.toFixed(1)} | ${throughput(bytes, ours)} | ${ratio.toFixed(2)}× |`,
    "",
    `Target: at most 1.0× sha256sum: ${ratio.toFixed(2)}× ${verdict(ratio <= 1.0)}.`,
  ].join("\n");
}

// --- internal ---

function throughput(bytes: number, ms: number): string {
  return (bytes / 1024 / 1024 / (ms / 1000)).toFixed(0);
}

/** Write `files` files totalling `bytes` bytes under `dir`; their paths relative to it. */
function writeTree(dir: string, files: number, bytes: number): string[] {
  rmSync(dir, { recursive: true, force: true });
  // weights from 1 to 199 spread over the files; each size rounded down, the last takes the rest
  const weights = Array.from({ length: files }, (_, index) => 1 + ((index * 7919) % 199));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const relative: string[] = [];
  let written = 0;
  for (const [index, weight] of weights.entries()) {
    const folder = `part-${String(Math.floor(index / PER_FOLDER)).padStart(3, "0")}`;
    if (index % PER_FOLDER === 0) mkdirSync(join(dir, folder), { recursive: true });
    const size = index === files - 1 ? bytes - written : Math.floor((bytes * weight) / total);
    const path = `${folder}/file-${index}.${index % 10 === 0 ? "sh" : "md"}`;
    writeFileSync(join(dir, path), Buffer.alloc(size, `${index} `));
    if (index % 10 === 0) chmodSync(join(dir, path), 0o755);
    written += size;
    relative.push(path);
  }
  return relative;
}
