import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { BENCH_GIT_ENV, installedPackages } from "./installed.js";
import { type BenchOptions, median, medianRatio, timeSideBySide, verdict } from "./measure.js";

const COLLECTION = 50;
/** The skills of the shared corpus. */
const VERIFIED = 1_000;

/**
 * The command line's change benchmark, process start to exit. `skillshelf install` of one real
 * skill and of a 50-skill collection of them, from a local folder and from a local git
 * repository, each beside its floor in the same run: a bare `node -e 0` start, a `git clone
 * --depth 1` for a repository, one `cp -r` of the skills into place and `sha256sum` of the copies;
 * target at most 2×. Then `skillshelf verify` over 1,000 installed
 * copies beside `sha256sum` over the same files; target at most 1.5×.
 */
export function runCliBench(options: BenchOptions): string {
  const dir = join(options.workDir, "cli-change");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const bin = cliBin();
  const collectionSize = Math.min(COLLECTION, Math.max(2, Math.round(options.count / 200)));
  const single = join(dir, "single", "skill-0");
  options.skills.write(single, "skill-0", 0);
  const collection = join(dir, "collection");
  for (let index = 0; index < collectionSize; index++)
    options.skills.write(join(collection, "skills", `skill-${index}`), `skill-${index}`, index);
  const singleRepo = gitRepository(single);
  const collectionRepo = gitRepository(collection);
  let run = 0;
  const freshHome = () => mkdtempSync(join(dir, `home-${run++}-`));
  const install =
    (target: string, ...extra: string[]) =>
    () => {
      const home = freshHome();
      execFileSync(process.execPath, [bin, "install", target, "--user", "--yes", ...extra], {
        cwd: home,
        env: { ...BENCH_GIT_ENV, HOME: home, SKILLSHELF_HOME: join(home, "library") },
        stdio: "ignore",
      });
    };
  // what any install must do: start Node, copy the skills into place (out of a clone, for a
  // repository), and read every byte copied to digest it
  const floor = (fetch: (into: string) => string) => () => {
    const home = freshHome();
    execFileSync(process.execPath, ["-e", "0"]);
    const copied = join(home, "copied");
    execFileSync("cp", ["-r", fetch(join(home, "fetched")), copied]);
    sha256sumTree(copied);
  };
  const local = (from: string) => () => from;
  const clone = (repo: string) => (into: string) => {
    execFileSync("git", ["clone", "--quiet", "--depth", "1", pathToFileURL(repo).href, into], {
      env: BENCH_GIT_ENV,
    });
    return repo === singleRepo ? into : join(into, "skills");
  };
  const cases = [
    ["one skill, local folder", install(single), floor(local(single))],
    [
      `${collectionSize}-skill collection, local folder`,
      install(collection, "--skill", "*"),
      floor(local(join(collection, "skills"))),
    ],
    ["one skill, local git repository", install(`${singleRepo}#main`), floor(clone(singleRepo))],
    [
      `${collectionSize}-skill collection, local git repository`,
      install(`${collectionRepo}#main`, "--skill", "*"),
      floor(clone(collectionRepo)),
    ],
  ] as const;
  // whole processes on a shared machine swing more than calls do: twice the rounds (and one)
  const rounds = 2 * options.rounds + 1;
  console.log(`bench: timing installs from start to exit, ${rounds} rounds side by side`);
  const variants: Record<string, () => unknown> = {};
  for (const [name, ours, base] of cases) {
    variants[`${name}: skillshelf install`] = ours;
    variants[`${name}: floor`] = base;
  }
  const times = timeSideBySide(variants, rounds);
  const of = (name: string) => times[name] ?? [];
  const installRows = cases.map(([name]) => {
    const [ours, base] = [of(`${name}: skillshelf install`), of(`${name}: floor`)];
    return { name, ours: median(ours), base: median(base), ratio: medianRatio(ours, base) };
  });
  const verify = verifyTimes(options, dir, bin, rounds);
  return [
    "## The change commands, process start to exit",
    "",
    `\`skillshelf install … --user --yes\` of one real skill and of a collection of ${options.skills.describe(collectionSize)} into a fresh home each run, beside the floor: \`node -e 0\`, then \`git clone --depth 1\` for a repository, then one \`cp -r\` of the skill folders into place and \`sha256sum\` of the copies; medians of ${rounds} rounds, and the ratio is the median of each round's ratio. Every install audits what it staged before it writes, so these times include the audit.`,
    "",
    "| install | skillshelf ms | floor ms | ratio |",
    "|---|---|---|---|",
    ...installRows.map(
      (row) =>
        `| ${row.name} | ${row.ours.toFixed(0)} | ${row.base.toFixed(0)} | ${row.ratio.toFixed(2)}× |`,
    ),
    "",
    `Target: at most 2× the floor: ${verdict(installRows.every((row) => row.ratio <= 2))} (worst ${Math.max(...installRows.map((row) => row.ratio)).toFixed(2)}×).`,
    "",
    `\`skillshelf verify\` over ${verify.copies} installed copies (${verify.megabytes.toFixed(0)} MB in ${verify.files} files), process start to exit, beside \`sha256sum\` over the same files (\`find … | xargs sha256sum\`); medians of ${rounds} rounds: ${verify.ours.toFixed(0)} ms against ${verify.base.toFixed(0)} ms; median ratio ${verify.ratio.toFixed(2)}×.`,
    `Target: at most 1.5×: ${verdict(verify.ratio <= 1.5)}.`,
  ].join("\n");
}

// --- internal ---

/** The built command line's bin, as a user runs it. */
export function cliBin(): string {
  return join(
    dirname(createRequire(import.meta.url).resolve("@skillshelf/cli/package.json")),
    "dist",
    "cli.cjs",
  );
}

/** A git repository (a work tree with one commit on `main`) holding a copy of `tree`. */
export function gitRepository(tree: string): string {
  const repo = `${tree}-repo`;
  execFileSync("cp", ["-r", tree, repo]);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env: BENCH_GIT_ENV });
  git("init", "--quiet", "--initial-branch=main");
  git("add", "--all");
  git("commit", "--quiet", "-m", "skills");
  return repo;
}

/** `sha256sum` over every file of `dir` but git's: the floor's hashing. */
export function sha256sumTree(dir: string): void {
  execFileSync("sh", [
    "-c",
    'find "$1" -type f -not -path "*/.git/*" -print0 | xargs -0 sha256sum > /dev/null',
    "sh",
    dir,
  ]);
}

/** Median times of `skillshelf verify` over many installed copies and of sha256sum over their files. */
function verifyTimes(options: BenchOptions, dir: string, bin: string, rounds: number) {
  const copies = Math.min(VERIFIED, Math.max(4, Math.round(options.count / 10)));
  const environment = installedPackages(options.skills, join(dir, "verify"), copies);
  const packages = join(environment.configDir, "packages");
  const env = {
    PATH: BENCH_GIT_ENV.PATH,
    HOME: environment.home,
    SKILLSHELF_HOME: environment.configDir,
  };
  const counted = execFileSync("sh", ["-c", 'find "$1" -type f -printf "%s\\n"', "sh", packages], {
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .map(Number);
  console.log(`bench: timing verify over ${copies} copies, ${rounds} rounds side by side`);
  const times = timeSideBySide(
    {
      "skillshelf verify": () =>
        execFileSync(process.execPath, [bin, "verify", "--cwd", environment.cwd], {
          env,
          stdio: "ignore",
        }),
      sha256sum: () => sha256sumTree(packages),
    },
    rounds,
  );
  const [ours, base] = [times["skillshelf verify"] ?? [], times.sha256sum ?? []];
  return {
    copies,
    files: counted.length,
    megabytes: counted.reduce((sum, size) => sum + size, 0) / 1e6,
    ours: median(ours),
    base: median(base),
    ratio: medianRatio(ours, base),
  };
}
