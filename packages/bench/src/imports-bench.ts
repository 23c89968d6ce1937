import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { type BenchOptions, median, verdict } from "./measure.js";

const MODULES = ["yaml", "@skillshelf/skills-loader", "@skillshelf/catalog-view"] as const;

/**
 * Import time (issue 30): `@skillshelf/skills-loader` and `@skillshelf/catalog-view` each imported
 * alone in a fresh node process, beside `yaml` alone, rounds interleaved; the time is measured in
 * the child around the `import()`, so node's own start is not in it. Target: each at most 1.5×
 * `yaml`'s.
 */
export function runImportsBench(options: BenchOptions): string {
  const cwd = join(options.binDir, "..");
  const times: Record<string, number[]> = Object.fromEntries(MODULES.map((name) => [name, []]));
  console.log(`bench: import times, ${options.rounds * 3} rounds`);
  for (let round = 0; round < options.rounds * 3; round++)
    for (const name of MODULES) times[name]?.push(importMs(name, cwd));
  const yaml = median(times.yaml ?? []);
  const rows = MODULES.map((name) => {
    const ms = median(times[name] ?? []);
    return `| ${name} | ${ms.toFixed(1)} | ${(ms / yaml).toFixed(2)}× |`;
  });
  const worst = Math.max(...MODULES.slice(1).map((name) => median(times[name] ?? []) / yaml));
  return [
    "## Import time",
    "",
    `Each module imported alone in a fresh node process, the time taken around the \`import()\` in the child; medians of ${options.rounds * 3} interleaved rounds:`,
    "",
    "| module | ms | ratio to yaml |",
    "|---|---|---|",
    ...rows,
    "",
    `Target: each at most 1.5× \`yaml\` alone: ${verdict(worst <= 1.5)}.`,
  ].join("\n");
}

function importMs(specifier: string, cwd: string): number {
  const script = `const start = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - start);`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd,
    encoding: "utf8",
  });
  if (child.status !== 0) throw new Error(`importing ${specifier} failed: ${child.stderr}`);
  return Number(child.stdout.trim());
}
