import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { BenchOptions } from "./measure.js";
import { median, verdict } from "./measure.js";

/**
 * The newcomer's first command (issue 31, item 3): `npm run demo` in a fresh clone of the
 * repository's committed HEAD, process start to exit, with its steps broken out (the quick start
 * writes them to SKILLSHELF_QUICKSTART_TIMES): idle, then beside a second process that keeps one
 * core busy. pnpm is taken off PATH, so each clone fetches its own as a fresh machine does; the
 * machine's pnpm store and npm cache stay warm. Targets: at most 60 s idle, and under load at most
 * 1.5× idle.
 */
export function runDemoBench(options: BenchOptions): string {
  const dir = join(options.workDir, "demo");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const rounds = Math.max(1, Math.min(3, options.rounds));
  const repository = join(options.binDir, "..", "..", "..");
  const idle: Steps[] = [];
  const loaded: Steps[] = [];
  for (let round = 0; round < rounds; round++) {
    console.log(`bench: npm run demo from a fresh clone, round ${round + 1} of ${rounds}`);
    idle.push(firstCommand(repository, join(dir, `idle-${round}`), false));
    loaded.push(firstCommand(repository, join(dir, `loaded-${round}`), true));
  }
  const row = (name: string, runs: readonly Steps[]) => {
    const of = (step: keyof Steps) => (median(runs.map((run) => run[step])) / 1000).toFixed(1);
    return `| ${name} | ${of("total")} | ${of("install")} | ${of("build")} | ${of("demo")} |`;
  };
  const idleTotal = median(idle.map((run) => run.total));
  const loadedTotal = median(loaded.map((run) => run.total));
  const ratio = loadedTotal / idleTotal;
  return [
    "## The first command",
    "",
    `\`npm run demo\` in a fresh clone of the committed HEAD, process start to exit (pnpm fetched into the clone's .tools/, as on a fresh machine; the pnpm store and npm cache warm); medians of ${rounds} rounds, in seconds. Under load, a second process keeps one of the cores busy throughout.`,
    "",
    "| machine | total s | install s | build s | demo s |",
    "|---|---|---|---|---|",
    row("idle", idle),
    row("under load", loaded),
    "",
    `Targets: at most 60 s idle: ${verdict(idleTotal <= 60_000)} (${(idleTotal / 1000).toFixed(1)} s); under load at most 1.5× idle: ${verdict(ratio <= 1.5)} (${ratio.toFixed(2)}×).`,
  ].join("\n");
}

// --- internal ---

interface Steps {
  readonly total: number;
  readonly install: number;
  readonly build: number;
  readonly demo: number;
}

function firstCommand(repository: string, clone: string, underLoad: boolean): Steps {
  execFileSync("git", ["clone", "--quiet", repository, clone]);
  const timesFile = join(clone, ".quickstart-times.json");
  const burner = underLoad ? spawn(process.execPath, ["-e", "for (;;) {}"]) : undefined;
  try {
    const start = performance.now();
    execFileSync("npm", ["run", "demo"], {
      cwd: clone,
      stdio: "ignore",
      env: { ...freshShell(), SKILLSHELF_QUICKSTART_TIMES: timesFile },
    });
    const total = performance.now() - start;
    return { total, ...JSON.parse(readFileSync(timesFile, "utf8")) };
  } finally {
    burner?.kill();
    rmSync(clone, { recursive: true, force: true });
  }
}

/** The environment of a new terminal: no npm_* variables and no node_modules/.bin (where pnpm is) on PATH. */
function freshShell(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")),
  );
  env.PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((folder) => !folder.endsWith(join("node_modules", ".bin")))
    .join(delimiter);
  return env;
}
