import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readCollection } from "@skillshelf/sources";
import { cliBin, gitRepository, sha256sumTree } from "./cli-bench.js";
import type { InstallableSkills } from "./corpus-tree.js";
import { BENCH_GIT_ENV } from "./installed.js";
import { type BenchOptions, median, medianRatio, timeSideBySide, verdict } from "./measure.js";

const CATEGORIES = 20;

/**
 * Collections as authors lay them out: a repository of skills in nested category
 * folders (`cli-tool/components/skills/<category>/<name>/SKILL.md`, where no conventional layout
 * holds any). `skillshelf install <repo> --skill '*'` of 1,000 of them from a local git
 * repository, process start to exit, beside the floor in the same run (`node -e 0`, `git clone
 * --depth 1`, one `cp -r` of the skills, `sha256sum` of the copies): target at most 2×. Then discovery alone (`readCollection`) at 100,
 * 1,000 and 10,000 skills: target linear (per skill at the largest at most 1.3× the middle).
 */
export function runLayoutsBench(options: BenchOptions): string {
  const dir = join(options.workDir, "layouts");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const installed = Math.max(20, Math.min(1_000, Math.round(options.count / 10)));
  const repo = gitRepository(nestedCollection(options.skills, join(dir, "nested"), installed));
  const bin = cliBin();
  let run = 0;
  const freshHome = () => mkdtempSync(join(dir, `home-${run++}-`));
  const rounds = options.rounds;
  console.log(
    `bench: installing ${installed} nested skills from git, ${rounds} rounds side by side`,
  );
  const times = timeSideBySide(
    {
      install: () => {
        const home = freshHome();
        execFileSync(
          process.execPath,
          [bin, "install", `${pathToFileURL(repo).href}#main`, "--skill", "*", "--user", "--yes"],
          {
            cwd: home,
            env: { ...BENCH_GIT_ENV, HOME: home, SKILLSHELF_HOME: join(home, "library") },
            stdio: "ignore",
          },
        );
      },
      // what any install must do: start Node, clone, copy the skills out of the clone into
      // place (one `cp -r`), and read every byte copied to digest it
      floor: () => {
        const home = freshHome();
        const into = join(home, "tree");
        execFileSync(process.execPath, ["-e", "0"]);
        execFileSync("git", ["clone", "--quiet", "--depth", "1", pathToFileURL(repo).href, into], {
          env: BENCH_GIT_ENV,
        });
        const copied = join(home, "copied");
        execFileSync("sh", ["-c", 'mkdir "$2" && cp -r "$1"/* "$2"', "sh", into, copied]);
        sha256sumTree(copied);
      },
    },
    rounds,
  );
  const ours = times.install ?? [];
  const floor = times.floor ?? [];
  const ratio = medianRatio(ours, floor);
  const sizes = [100, 1_000, 10_000].map((size) =>
    Math.max(10, Math.round((size * options.count) / 10_000)),
  );
  const discovery = sizes.map((size) => {
    const tree = nestedCollection(options.skills, join(dir, `discover-${size}`), size);
    const read = timeSideBySide({ discover: () => readCollection(tree) }, rounds).discover ?? [];
    const found = readCollection(tree).skills.length;
    return { size, found, ms: median(read), perSkill: (median(read) * 1000) / size };
  });
  const [, middle, largest] = discovery;
  const growth = (largest?.perSkill ?? 0) / (middle?.perSkill ?? 1);
  return [
    "## Collections as authors lay them out",
    "",
    `\`skillshelf install <repo>#main --skill '*' --user --yes\` of ${options.skills.describe(installed)} in ${CATEGORIES} nested category folders of a local git repository (no conventional layout holds any), into a fresh home each run, beside the floor: \`node -e 0\`, \`git clone --depth 1\`, one \`cp -r\` of the skill folders out of the clone and \`sha256sum\` of the copies; medians of ${rounds} rounds: ${median(ours).toFixed(0)} ms against ${median(floor).toFixed(0)} ms; median ratio ${ratio.toFixed(2)}×.`,
    `Target: at most 2× the floor: ${verdict(ratio <= 2)}.`,
    "",
    "Discovery alone (`readCollection`, the category search), medians:",
    "",
    "| skills | found | ms | µs per skill |",
    "|---|---|---|---|",
    ...discovery.map(
      (row) => `| ${row.size} | ${row.found} | ${row.ms.toFixed(1)} | ${row.perSkill.toFixed(1)} |`,
    ),
    "",
    `Target: linear, per skill at ${largest?.size} at most 1.3× per skill at ${middle?.size}: ${verdict(growth <= 1.3)} (${growth.toFixed(2)}×).`,
  ].join("\n");
}

// --- internal ---

/**
 * `count` skills spread over nested category folders, as a large public repository keeps them,
 * each one of the corpus's real skills a plain install takes, in turn.
 */
function nestedCollection(skills: InstallableSkills, dir: string, count: number): string {
  for (let index = 0; index < count; index++) {
    const category = `category-${index % CATEGORIES}`;
    const group = `group-${Math.floor(index / (CATEGORIES * 10)) % 5}`;
    const name = `skill-${index}`;
    skills.write(join(dir, "cli-tool", "components", "skills", category, group, name), name, index);
  }
  writeFileSync(join(dir, "README.md"), "# A repository of nested skills\n");
  return dir;
}
