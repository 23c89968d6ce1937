import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BIN, EXAMPLES, runCli } from "./_run.js";

describe("usage and mistakes", () => {
  it.each([
    [[], 2, "stdout", /^Usage: skillshelf <command>/],
    [["--help"], 0, "stdout", /^Usage: skillshelf <command>/],
    [["help", "list"], 0, "stdout", /^Usage: skillshelf list/],
    [["list", "--help"], 0, "stdout", /^Usage: skillshelf list/],
    [["validate", "-h"], 0, "stdout", /^Usage: skillshelf validate/],
    [["--version"], 0, "stdout", /^\d+\.\d+\.\d+\n$/],
    [["frobnicate"], 2, "stderr", /^skillshelf: unknown command "frobnicate"/],
    [
      ["list", "--bogus"],
      2,
      "stderr",
      /^skillshelf: Unknown option '--bogus'\nUsage: skillshelf list/,
    ],
    [["list", "--kind", "bogus"], 2, "stderr", /^skillshelf: --kind bogus is not a kind/],
    [
      ["list", "--cwd", "/nonexistent/folder"],
      2,
      "stderr",
      /^skillshelf: --cwd \/nonexistent\/folder: no such folder/,
    ],
    [["list", "--cwd"], 2, "stderr", /^skillshelf: Option '--cwd <value>' argument missing/],
    [["validate"], 2, "stderr", /^skillshelf: name at least one path to validate/],
    [["validate", "--strict-keys", "x"], 2, "stderr", /^skillshelf: --strict-keys needs --strict/],
  ])("%j exits %i", (args, status, stream, pattern) => {
    const result = runCli(args as string[], { env: { HOME: "/nonexistent" } });
    expect(result.status).toBe(status);
    expect(result[stream as "stdout" | "stderr"]).toMatch(pattern);
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("output to a closed pipe", () => {
  it("ends quietly when the reader stops early", async () => {
    const child = spawn(process.execPath, [BIN, "list", "--json", "--cwd", `${EXAMPLES}/project`], {
      env: { PATH: process.env.PATH ?? "", HOME: `${EXAMPLES}/home` },
    });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const status = await new Promise((resolve) => child.on("close", resolve));
    expect(status).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
  });
});
