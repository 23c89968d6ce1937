import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { BIN } from "../test/_run.js";

const DIST = dirname(BIN);
const CHECK = join(DIST, "..", "build", "code-cache.js");

/** Exit status of the build's check: 0 when the bin in `dir` takes its code cache. */
const check = (dir: string) =>
  spawnSync(process.execPath, [CHECK, "--check", dir], { encoding: "utf8" }).status;

/** A copy of the built bin, to change without touching dist. */
function binCopy(): string {
  const dir = testdir();
  for (const file of ["cli.cjs", "skillshelf.cjs", "skillshelf.cache"])
    cpSync(join(DIST, file), join(dir, file));
  return dir;
}

const version = (dir: string) =>
  spawnSync(process.execPath, [join(dir, "cli.cjs"), "--version"], { encoding: "utf8" });

describe("the bin's code cache", () => {
  it("is taken as the build wrote it", () => {
    expect(check(DIST)).toBe(0);
    expect(check(binCopy())).toBe(0);
  });

  it("is left unused for a bundle it was not made from, which still runs", () => {
    const dir = binCopy();
    appendFileSync(join(dir, "skillshelf.cjs"), "\n// changed after the build\n");
    expect(check(dir)).toBe(1);
    expect(version(dir)).toMatchObject({ status: 0, stdout: "0.0.0\n", stderr: "" });
  });

  it("is left unused for a bundle of another build, even of the same length", () => {
    const dir = binCopy();
    const bundle = readFileSync(join(dir, "skillshelf.cjs"), "latin1");
    const stamp = bundle.lastIndexOf("skillshelf-build ") + "skillshelf-build ".length;
    const other = bundle[stamp] === "0" ? "1" : "0";
    writeFileSync(
      join(dir, "skillshelf.cjs"),
      `${bundle.slice(0, stamp)}${other}${bundle.slice(stamp + 1)}`,
      "latin1",
    );
    expect(check(dir)).toBe(1);
    expect(version(dir)).toMatchObject({ status: 0, stdout: "0.0.0\n", stderr: "" });
  });

  it("ends the bundle with one build stamp", () => {
    const bundle = readFileSync(join(DIST, "skillshelf.cjs"), "utf8");
    expect(bundle.match(/\n\/\/# skillshelf-build [0-9a-f]{64}\n$/g)).toHaveLength(1);
    expect(bundle.split("skillshelf-build ")).toHaveLength(2);
  });

  it("is refused by V8 when its data is damaged, and the bin still runs", () => {
    const dir = binCopy();
    const cache = readFileSync(join(dir, "skillshelf.cache"));
    // the build's stamp kept, V8's data cut short
    writeFileSync(join(dir, "skillshelf.cache"), cache.subarray(0, 64 + 1000));
    expect(check(dir)).toBe(1);
    expect(version(dir)).toMatchObject({ status: 0, stdout: "0.0.0\n", stderr: "" });
  });

  it("may be missing or empty", () => {
    const dir = binCopy();
    writeFileSync(join(dir, "skillshelf.cache"), "");
    expect(check(dir)).toBe(1);
    rmSync(join(dir, "skillshelf.cache"));
    expect(check(dir)).toBe(1);
    expect(version(dir)).toMatchObject({ status: 0, stdout: "0.0.0\n", stderr: "" });
  });
});
