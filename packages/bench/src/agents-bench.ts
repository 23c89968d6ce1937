import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { AGENTS } from "@skillshelf/core";
import { cliBin } from "./cli-bench.js";
import { type InstallableSkills, treeOf } from "./corpus-tree.js";
import { type BenchOptions, median, timeSideBySide, verdict } from "./measure.js";

/** Every agent's own skill folders the tree is spread over, user and project. */
const FOLDERS = AGENTS.flatMap((agent) => [
  { base: "home", path: agent.userSkillRoot },
  { base: "project", path: agent.projectSkillRoot },
]).filter(
  (folder): folder is { base: "home" | "project"; path: string } => folder.path !== undefined,
);

/**
 * Across agents, process start to exit: `skillshelf list --all` (one row per identity, every
 * location, drift) beside plain `skillshelf list` over `count` skills spread over every agent's
 * folders, target at most 1.3×; and `skillshelf explain` for every agent of the table over the
 * same tree, target under 2× one `list`.
 */
export function runAgentsBench(options: BenchOptions): string {
  const dir = join(options.workDir, "agents");
  const { home, project, files, shared } = agentTree(options.skills, dir, options.count);
  const [user, own] = [treeOf(home, 0), treeOf(project, 0)];
  const onDisk = { files: user.files + own.files, bytes: user.bytes + own.bytes };
  const bin = cliBin();
  const run =
    (...args: string[]) =>
    () =>
      execFileSync(process.execPath, [bin, ...args, "--json"], {
        cwd: project,
        env: { PATH: process.env.PATH ?? "", HOME: home, SKILLSHELF_HOME: join(home, "library") },
        maxBuffer: 1024 * 1024 * 1024,
        stdio: ["ignore", "pipe", "ignore"],
      });
  const rows = JSON.parse(run("list", "--all")().toString()).skills as { locations: unknown[] }[];
  const locations = rows.reduce((sum, row) => sum + row.locations.length, 0);
  console.log(
    `bench: timing list, list --all and explain over ${files} skills, ${options.rounds} rounds`,
  );
  const times = timeSideBySide(
    { list: run("list"), "list --all": run("list", "--all"), explain: run("explain") },
    options.rounds,
  );
  const ms = (name: string) => median(times[name] ?? []);
  const all = ms("list --all") / ms("list");
  const explain = ms("explain") / ms("list");
  return [
    "## Across agents, process start to exit",
    "",
    `${files} real skills (copies of the ${options.skills.count} of the corpus a plain install takes: ${onDisk.files} files, ${(onDisk.bytes / 1e6).toFixed(1)} MB) spread over ${FOLDERS.length} folders of ${AGENTS.length} agents (user and project), ${shared} names found in two folders (a third of them edited); median of ${options.rounds} rounds. \`list --all\` found ${locations} locations in ${rows.length} identity rows.`,
    "",
    "| command | ms | vs list |",
    "|---|---|---|",
    ...["list", "list --all", "explain"].map(
      (name) =>
        `| skillshelf ${name} --json | ${ms(name).toFixed(0)} | ${(ms(name) / ms("list")).toFixed(2)}× |`,
    ),
    "",
    `Targets: \`list --all\` at most 1.3× \`list\`: ${verdict(all <= 1.3)} (${all.toFixed(2)}×); \`explain\` for every agent under 2× one \`list\`: ${verdict(explain < 2)} (${explain.toFixed(2)}×).`,
  ].join("\n");
}

// --- internal ---

/**
 * `count` skill files over the agents' folders, round robin; every tenth name is placed in a
 * second folder too, and a third of those copies are edited (drift).
 */
function agentTree(
  skills: InstallableSkills,
  dir: string,
  count: number,
): { home: string; project: string; files: number; shared: number } {
  rmSync(dir, { recursive: true, force: true });
  const home = join(dir, "home");
  const project = join(dir, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  let files = 0;
  let shared = 0;
  // the `index`th real skill; an edited copy differs from the others of its name (drift)
  const write = (
    folder: (typeof FOLDERS)[number],
    name: string,
    index: number,
    edited: boolean,
  ) => {
    const path = join(folder.base === "home" ? home : project, folder.path, name);
    skills.write(path, name, index);
    if (edited) appendFileSync(join(path, "SKILL.md"), "\nEdited.\n");
    files += 1;
  };
  for (let index = 0; files < count; index++) {
    const name = `skill-${index}`;
    write(FOLDERS[index % FOLDERS.length] as (typeof FOLDERS)[number], name, index, false);
    if (index % 10 === 0 && files < count) {
      write(
        FOLDERS[(index + 3) % FOLDERS.length] as (typeof FOLDERS)[number],
        name,
        index,
        index % 30 === 0,
      );
      shared += 1;
    }
  }
  return { home, project, files, shared };
}
