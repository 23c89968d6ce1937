import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { skillFile, testdir, writeTree } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { type CliRun, runCli } from "../test/_run.js";
import { type ChangeSandbox, changeSandbox } from "../test/_sandbox.js";

/** A collection of `count` skills in `skills/<name>/`. */
function collection(count: number): string {
  const root = testdir();
  const tree: Record<string, string> = {};
  for (let index = 0; index < count; index++) {
    const name = `skill-${String(index).padStart(5, "0")}`;
    tree[`skills/${name}/SKILL.md`] = skillFile(name, `Skill number ${index}, for the scale test.`);
  }
  writeTree(root, tree);
  return root;
}

/** How long `run` took, in ms, once it has succeeded. */
function timed(run: () => CliRun): number {
  const started = process.hrtime.bigint();
  const result = run();
  const took = Number(process.hrtime.bigint() - started) / 1e6;
  expect(result.status, result.stderr).toBe(0);
  return took;
}

function spawned(box: ChangeSandbox, ...args: string[]): CliRun {
  return runCli(args, { cwd: box.cwd, env: box.env });
}

/** A fresh project with every skill of `source` installed, and how long the install took. */
function installAll(source: string): { box: ChangeSandbox; took: number } {
  const box = changeSandbox();
  mkdirSync(join(box.cwd, ".git"));
  // each size a process of its own, as a user runs it: the ratio includes the start
  const took = timed(() => spawned(box, "install", source, "--skill", "*", "--project", "--yes"));
  return { box, took };
}

describe("installing a collection of more than 1,024 skills (issue 32, item 3)", () => {
  it("costs about as much per skill as a smaller one: 1,100 skills against 500, side by side", () => {
    const small = collection(500);
    const large = collection(1100);
    // each size twice, in turn, and the faster of each: a ratio, not a clock
    const times = { small: [] as number[], large: [] as number[] };
    for (let round = 0; round < 2; round++) {
      times.small.push(installAll(small).took);
      times.large.push(installAll(large).took);
    }
    const ratio = Math.min(...times.large) / Math.min(...times.small);
    // linear is 2.2 at most (the process start is shared); quadratic would be 4.8, and the
    // read-back this guards used to make it a hundred
    expect(ratio).toBeLessThan(3.5);
  });

  it("lists 4,400 installed packages at about four times the cost of 1,100", () => {
    const small = installAll(collection(1100)).box;
    const large = installAll(collection(4400)).box;
    const list = (box: ChangeSandbox) => timed(() => spawned(box, "list", "--kind", "packages"));
    const times = { small: [list(small), list(small)], large: [list(large), list(large)] };
    // linear is 4 at most; the grouping this guards made it 16
    expect(Math.min(...times.large) / Math.min(...times.small)).toBeLessThan(8);
  });
});
