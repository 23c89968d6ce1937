import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { cliBin, sha256sumTree } from "./cli-bench.js";
import type { InstallableSkills } from "./corpus-tree.js";
import { BENCH_GIT_ENV } from "./installed.js";
import { type BenchOptions, median, medianRatio, timePrepared, verdict } from "./measure.js";

const SIZES = [10, 100, 1_000];

/**
 * `update` and `remove` of many packages from one repository (issue 31), process start to exit,
 * at 10, 100 and 1,000 skills, side by side in one run: `update` of every skill changed beside a
 * fresh install of the same skills and the install floor (`node -e 0`, `git clone --depth 1`,
 * `sha256sum`); `remove --from` of all of them beside the floor of deleting their folders (`node
 * -e 0`, `rm -r`). Targets: update at most 1.5× the fresh install, removal at most 2× its floor,
 * and both linear (the time per package never grows by more than 1.3× from one size to the next).
 */
export function runChangesBench(options: BenchOptions): string {
  const dir = join(options.workDir, "changes");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const bin = cliBin();
  // a small --count may bring two sizes to one
  const sizes = [
    ...new Set(SIZES.map((size) => Math.max(5, Math.round((size * options.count) / 10_000)))),
  ];
  const rows = sizes.map((size) => {
    console.log(
      `bench: update and remove of ${size} packages, ${options.rounds} rounds side by side`,
    );
    return measureSize(options.skills, join(dir, String(size)), size, bin, options.rounds);
  });
  const linear = (perPackage: (row: Row) => number) =>
    rows.every(
      (row, index) => index === 0 || perPackage(row) <= 1.3 * perPackage(rows[index - 1] as Row),
    );
  const largest = sizes[sizes.length - 1] as number;
  console.log(`bench: list and remove of one at ${largest} installed, ${options.rounds} rounds`);
  const reads = measureReads(
    options.skills,
    join(dir, `reads-${largest}`),
    largest,
    bin,
    options.rounds,
  );
  const updateLinear = linear((row) => row.update / row.size);
  const removeLinear = linear((row) => row.remove / row.size);
  return [
    "## Update and remove of many packages, process start to exit",
    "",
    `Real skills in one local git repository (${sizes.map((size) => options.skills.describe(size)).join("; ")}), every one replaced by another real skill in a second commit; into a fresh home each run, the packages installed beforehand untimed and every prepared home or folder synced to disk before the timed run (as a library installed earlier is); medians of ${options.rounds} rounds, ratios the median of each round's. \`update --user --yes\` beside a fresh \`install <repo> --skill '*'\` of the changed skills and the install floor (\`node -e 0\`, \`git clone --depth 1\`, \`sha256sum\`); \`remove --from <repo> --user --yes\` beside the floor of deleting their folders (\`node -e 0\`, \`rm -r\`).`,
    "",
    "| packages | update ms | fresh install ms | install floor ms | update / install | remove ms | delete floor ms | remove / floor |",
    "|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (row) =>
        `| ${row.size} | ${row.update.toFixed(0)} | ${row.install.toFixed(0)} | ${row.floor.toFixed(0)} | ${row.updateRatio.toFixed(2)}× | ${row.remove.toFixed(0)} | ${row.deleteFloor.toFixed(0)} | ${row.removeRatio.toFixed(2)}× |`,
    ),
    "",
    `Targets: update at most 1.5× a fresh install: ${verdict(rows.every((row) => row.updateRatio <= 1.5))} (worst ${Math.max(...rows.map((row) => row.updateRatio)).toFixed(2)}×); removal at most 2× deleting the folders: ${verdict(rows.every((row) => row.removeRatio <= 2))} (worst ${Math.max(...rows.map((row) => row.removeRatio)).toFixed(2)}×); linear from size to size (per package at most 1.3× the size before): update ${verdict(updateLinear)}, remove ${verdict(removeLinear)}.`,
    "",
    `Reading and one removal with ${largest} packages installed (issue 31, item 0b: read paths trust the record and the stamps a read remembered; the issue measured \`list\` at 8.4× and one \`remove\` at 11–13× \`node -e 0\`), both sides in a bare environment (\`PATH\` and the home only); medians of ${options.rounds} rounds, each ratio the median of each round's against \`node -e 0\` run beside it:`,
    "",
    "| command | ms | vs `node -e 0` |",
    "|---|---|---|",
    ...reads.map(
      (read) => `| ${read.command} | ${read.ms.toFixed(0)} | ${read.ratio.toFixed(1)}× |`,
    ),
  ].join("\n");
}

// --- internal ---

interface Row {
  readonly size: number;
  readonly update: number;
  readonly install: number;
  readonly floor: number;
  readonly updateRatio: number;
  readonly remove: number;
  readonly deleteFloor: number;
  readonly removeRatio: number;
}

function measureSize(
  skills: InstallableSkills,
  dir: string,
  size: number,
  bin: string,
  rounds: number,
): Row {
  const repo = changedRepository(skills, join(dir, "repo"), size);
  const url = pathToFileURL(repo).href;
  let run = 0;
  const freshHome = () => mkdtempSync(join(dir, `home-${run++}-`));
  const skillshelf = (home: string, ...args: string[]) =>
    execFileSync(process.execPath, [bin, ...args, "--user", "--yes"], {
      cwd: home,
      env: { ...BENCH_GIT_ENV, HOME: home, SKILLSHELF_HOME: join(home, "library") },
      stdio: "ignore",
    });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env: BENCH_GIT_ENV });
  // `live` names the first commit while the packages are installed, the second for the update
  const installedAt = (commit: string) => {
    git("branch", "--force", "live", commit);
    const home = freshHome();
    skillshelf(home, "install", `${url}#live`, "--skill", "*");
    return home;
  };
  const times = timePrepared(
    {
      update: {
        prepare: () => {
          const home = installedAt("first");
          git("branch", "--force", "live", "main");
          return home;
        },
        run: (home: string) => skillshelf(home, "update"),
      },
      install: {
        prepare: freshHome,
        run: (home: string) => skillshelf(home, "install", `${url}#main`, "--skill", "*"),
      },
      floor: {
        prepare: () => join(freshHome(), "tree"),
        run: (into: string) => {
          execFileSync(process.execPath, ["-e", "0"]);
          execFileSync("git", ["clone", "--quiet", "--depth", "1", url, into], {
            env: BENCH_GIT_ENV,
          });
          sha256sumTree(into);
        },
      },
      remove: {
        prepare: () => installedAt("main"),
        run: (home: string) => skillshelf(home, "remove", "--from", `${url}#live`),
      },
      "delete floor": {
        prepare: () => {
          const packages = join(freshHome(), "packages");
          execFileSync("cp", ["-r", join(repo, "skills"), packages]);
          return packages;
        },
        run: (packages: string) => {
          execFileSync(process.execPath, ["-e", "0"]);
          execFileSync("rm", ["-r", packages]);
        },
      },
    },
    rounds,
  );
  const of = (name: string) => times[name] ?? [];
  return {
    size,
    update: median(of("update")),
    install: median(of("install")),
    floor: median(of("floor")),
    updateRatio: medianRatio(of("update"), of("install")),
    remove: median(of("remove")),
    deleteFloor: median(of("delete floor")),
    removeRatio: medianRatio(of("remove"), of("delete floor")),
  };
}

/**
 * `list`, `list --kind packages` and `remove` of one package at `size` installed from one
 * repository, each beside `node -e 0`; the removal in a fresh copy of the home each round, read
 * once untimed first (a copy has new inodes, so what a read remembered no longer holds).
 */
function measureReads(
  skills: InstallableSkills,
  dir: string,
  size: number,
  bin: string,
  rounds: number,
): { command: string; ms: number; ratio: number }[] {
  const repo = changedRepository(skills, join(dir, "repo"), size);
  const installed = join(dir, "installed");
  mkdirSync(installed, { recursive: true });
  // a start-up ratio: both sides in a bare environment (as the CLI start-up benchmark runs), not
  // one that makes every Node start read a CA bundle (NODE_EXTRA_CA_CERTS on these machines)
  const bare = (home: string) => ({
    PATH: process.env.PATH ?? "",
    HOME: home,
    SKILLSHELF_HOME: join(home, "library"),
  });
  const skillshelf = (home: string, args: readonly string[]) =>
    execFileSync(process.execPath, [bin, ...args], { cwd: home, env: bare(home), stdio: "ignore" });
  execFileSync(
    process.execPath,
    [bin, "install", `${pathToFileURL(repo).href}#main`, "--skill", "*", "--user", "--yes"],
    { cwd: installed, env: { ...BENCH_GIT_ENV, ...bare(installed) }, stdio: "ignore" },
  );
  skillshelf(installed, ["list"]);
  const node = () => execFileSync(process.execPath, ["-e", "0"], { env: bare(installed) });
  let copies = 0;
  const times = timePrepared(
    {
      "node -e 0": { prepare: () => undefined, run: node },
      list: { prepare: () => undefined, run: () => skillshelf(installed, ["list"]) },
      "list --kind packages": {
        prepare: () => undefined,
        run: () => skillshelf(installed, ["list", "--kind", "packages"]),
      },
      "remove of one": {
        prepare: () => {
          const home = join(dir, `copy-${copies++}`);
          execFileSync("cp", ["-a", installed, home]);
          skillshelf(home, ["list"]);
          return home;
        },
        run: (home: string) =>
          skillshelf(home, ["remove", `skill-${Math.floor(size / 2)}`, "--user", "--yes"]),
      },
    },
    rounds,
  );
  const base = times["node -e 0"] ?? [];
  return ["list", "list --kind packages", "remove of one"].map((command) => ({
    command: `\`${command === "remove of one" ? "remove <one id>" : command}\``,
    ms: median(times[command] ?? []),
    ratio: medianRatio(times[command] ?? [], base),
  }));
}

/** A repository of `count` skills under `skills/`: commit `first`, then `main` with every skill changed. */
function changedRepository(skills: InstallableSkills, repo: string, count: number): string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env: BENCH_GIT_ENV });
  const write = (edition: number) => {
    for (let index = 0; index < count; index++)
      skills.write(join(repo, "skills", `skill-${index}`), `skill-${index}`, index + edition);
  };
  mkdirSync(repo, { recursive: true });
  git("init", "--quiet", "--initial-branch=main");
  write(0);
  git("add", "--all");
  git("commit", "--quiet", "-m", "first");
  git("branch", "first");
  write(1);
  git("commit", "--quiet", "--all", "-m", "every skill changed");
  return repo;
}
