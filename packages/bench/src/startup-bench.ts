import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cliBin } from "./cli-bench.js";
import { type BenchOptions, median, medianRatio, timeSideBySide, verdict } from "./measure.js";

/**
 * Start-up, process start to exit: `skillshelf --version` and `skillshelf list` in an empty
 * folder with an empty home, beside `node -e 0` in the same rounds. Targets (issue 56, item 4):
 * `--version` at most 1.2×, `list` at most 1.5×.
 */
export function runStartupBench(options: BenchOptions): string {
  const dir = join(options.workDir, "startup");
  rmSync(dir, { recursive: true, force: true });
  const home = join(dir, "home");
  const cwd = join(dir, "empty");
  for (const folder of [home, cwd]) mkdirSync(folder, { recursive: true });
  const env = { PATH: process.env.PATH ?? "", HOME: home, SKILLSHELF_HOME: join(home, "library") };
  const bin = cliBin();
  const run = (args: readonly string[]) => () =>
    execFileSync(process.execPath, args, { cwd, env, stdio: "ignore" });
  const rounds = options.rounds * 3;
  console.log(`bench: start-up, ${rounds} rounds side by side`);
  const times = timeSideBySide(
    {
      "node -e 0": run(["-e", "0"]),
      "--version": run([bin, "--version"]),
      "list (empty)": run([bin, "list"]),
    },
    rounds,
  );
  const base = times["node -e 0"] ?? [];
  const version = medianRatio(times["--version"] ?? [], base);
  const list = medianRatio(times["list (empty)"] ?? [], base);
  return [
    "## Start-up",
    "",
    `Process start to exit in an empty folder with an empty home, beside \`node -e 0\` in the same rounds; medians of ${rounds} rounds: \`node -e 0\` ${median(base).toFixed(0)} ms, \`skillshelf --version\` ${median(times["--version"] ?? []).toFixed(0)} ms (${version.toFixed(2)}×), \`skillshelf list\` ${median(times["list (empty)"] ?? []).toFixed(0)} ms (${list.toFixed(2)}×).`,
    `Targets: \`--version\` at most 1.2×: ${verdict(version <= 1.2)}; \`list\` at most 1.5×: ${verdict(list <= 1.5)}.`,
  ].join("\n");
}
