import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  applyLifecycle,
  createBundle,
  planLifecycle,
  restoreFromLock,
} from "@skillshelf/lifecycle";
import { packagesDir } from "@skillshelf/store";
import { cliBin, sha256sumTree } from "./cli-bench.js";
import { BENCH_GIT_ENV, benchEnvironment } from "./installed.js";
import { type BenchOptions, median, timeSideBySideAsync, verdict } from "./measure.js";
import { skillsRepository } from "./restore-bench.js";

const SKILLS = 200;

/**
 * Offline bundles (issue 59, item 2): a project holding 200 real skills (installed from one
 * repository), its bundle made (`createBundle`) beside the floor of `sha256sum` of every installed
 * file and `tar -czf` of the trees; and restored into an empty project (`restoreFromLock` with the
 * bundle, applied) beside `tar -xzf` and `sha256sum` of what it unpacked; each also as the command a
 * person runs, process start to exit. Target: at most 2× the floor.
 */
export async function runOfflineBundleBench(options: BenchOptions): Promise<string> {
  const count = Math.min(SKILLS, Math.max(4, Math.round(options.count / 5)));
  const dir = join(options.workDir, "offline-bundle");
  rmSync(dir, { recursive: true, force: true });
  const repo = skillsRepository(options.skills, join(dir, "repo"), count);
  const source = benchEnvironment(join(dir, "original"));
  const installed = await applyLifecycle(
    await planLifecycle({
      environment: source,
      operation: "install",
      targets: [repo],
      skills: ["*"],
      scope: "project",
    }),
  );
  if (installed.committed !== count) throw new Error("bench: the bundled project fell short");
  const trees = packagesDir(source, "project");
  const bundle = join(dir, "project.tar.gz");
  // signed, restored where the policy names the key: the company's case
  const key = join(dir, "release-key");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "bench", "-f", key]);
  const policy = `signatures:\n  keys:\n    - '${readFileSync(`${key}.pub`, "utf8").trim()}'\n`;
  const made = await createBundle({
    environment: source,
    scope: "project",
    file: bundle,
    sign: key,
    tool: { name: "skillshelf-bench", version: "0" },
  });
  if ("refusal" in made) throw new Error(`bench: ${made.refusal.message}`);
  const bin = cliBin();
  let round = 0;
  const outputs = join(dir, "rounds");
  mkdirSync(outputs, { recursive: true });
  const fresh = () => {
    const environment = benchEnvironment(join(outputs, `restore-${round++}`));
    mkdirSync(environment.configDir, { recursive: true });
    writeFileSync(join(environment.configDir, "policy.yaml"), policy);
    return environment;
  };
  const times = await timeSideBySideAsync(
    {
      "create floor": async () => {
        sha256sumTree(trees);
        execFileSync("tar", ["-czf", join(outputs, `floor-${round++}.tar.gz`), "-C", trees, "."]);
      },
      createBundle: async () => {
        const result = await createBundle({
          environment: source,
          scope: "project",
          file: join(outputs, `made-${round++}.tar.gz`),
          tool: { name: "skillshelf-bench", version: "0" },
        });
        if ("refusal" in result) throw new Error("bench: a bundle was refused");
      },
      "skillshelf bundle create": async () => {
        execFileSync(
          process.execPath,
          [bin, "bundle", "create", join(outputs, `cli-${round++}.tar.gz`), "--project"],
          { cwd: source.cwd, env: benchEnv(source), stdio: "ignore" },
        );
      },
      "restore floor": async () => {
        const into = join(outputs, `unpacked-${round++}`);
        mkdirSync(into);
        execFileSync("tar", ["-xzf", bundle, "-C", into]);
        sha256sumTree(into);
      },
      "restoreFromLock with the bundle + apply": async () => {
        const result = await applyLifecycle(
          await restoreFromLock({ environment: fresh(), scope: "project", bundle }),
        );
        if (result.committed !== count) throw new Error("bench: a bundle restore fell short");
      },
      "skillshelf install --from-bundle": async () => {
        const environment = fresh();
        execFileSync(
          process.execPath,
          [bin, "install", "--from-bundle", bundle, "--project", "--yes"],
          { cwd: environment.cwd, env: benchEnv(environment), stdio: "ignore" },
        );
      },
    },
    options.rounds,
    {
      // each call starts on a quiet disk: what earlier calls wrote is removed and synced first
      settle: () => {
        rmSync(outputs, { recursive: true, force: true });
        mkdirSync(outputs);
        execFileSync("sync");
      },
    },
  );
  const ms = (name: string) => median(times[name] ?? []);
  const row = (name: string, floor: string) =>
    `| ${name} | ${ms(name).toFixed(1)} | ${(ms(name) / ms(floor)).toFixed(2)}× |`;
  const created = ms("createBundle") / ms("create floor");
  const restored = ms("restoreFromLock with the bundle + apply") / ms("restore floor");
  return [
    "## Offline bundles",
    "",
    `A project holding ${options.skills.describe(count)}, installed from one repository (${made.bytes} bytes bundled); its bundle made (signed) and restored into an empty project with no network, where the policy names the bundle's key (so the audit verdicts it carries are taken, not made again); each floor does what the command must (hash every file, pack or unpack the trees); every call starts on a quiet disk (what earlier calls wrote removed and synced, untimed); medians of ${options.rounds} rounds side by side:`,
    "",
    "| variant | ms | vs its floor |",
    "|---|---|---|",
    `| create floor (sha256sum of every file, tar -czf) | ${ms("create floor").toFixed(1)} | 1.00× |`,
    row("createBundle", "create floor"),
    row("skillshelf bundle create", "create floor"),
    `| restore floor (tar -xzf, sha256sum of every file) | ${ms("restore floor").toFixed(1)} | 1.00× |`,
    row("restoreFromLock with the bundle + apply", "restore floor"),
    row("skillshelf install --from-bundle", "restore floor"),
    "",
    `Target: at most 2× the floor: create ${created.toFixed(2)}× ${verdict(created <= 2)}, restore ${restored.toFixed(2)}× ${verdict(restored <= 2)} (in process).`,
  ].join("\n");
}

// --- internal ---

function benchEnv(environment: {
  readonly home: string;
  readonly configDir: string;
}): Record<string, string | undefined> {
  return { ...BENCH_GIT_ENV, HOME: environment.home, SKILLSHELF_HOME: environment.configDir };
}
