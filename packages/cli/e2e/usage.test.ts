import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { BIN, EXAMPLES, REPO, runMain } from "../test/_run.js";

describe("usage and help", () => {
  it.each([
    [[], 2, /^Usage: skillshelf <command>/],
    [["--help"], 0, /^Usage: skillshelf <command>/],
    [["help", "list"], 0, /^Usage: skillshelf list/],
    [["list", "--help"], 0, /^Usage: skillshelf list/],
    [["validate", "-h"], 0, /^Usage: skillshelf validate/],
    [["--version"], 0, /^\d+\.\d+\.\d+\n$/],
  ])("%j exits %i", async (args, status, pattern) => {
    const result = await runMain(args as string[], { env: { HOME: "/nonexistent" } });
    expect(result.status).toBe(status);
    expect(result.stdout).toMatch(pattern);
  });

  it("generates every command's help from its definition, shared options included", async () => {
    const help = (await runMain(["list", "--help"])).stdout;
    expect(help).toMatch(
      /^Usage: skillshelf list \[--kind KIND\] \[--all\] \[--json\] \[--cwd DIR\]\n/,
    );
    expect(help).toContain("--cwd DIR");
    expect(help).toContain("Exit status: ");
    const top = (await runMain(["--help"])).stdout;
    for (const name of ["catalog", "list", "prompt", "search", "show", "sources", "validate"])
      expect(top).toMatch(new RegExp(`\\n  ${name} +\\S`));
  });
});

describe("usage mistakes are coded diagnostics", () => {
  // command, arguments after it, code, the hint when it suggests something
  it.each<[string, string[], string, string | undefined]>([
    ["frobnicate", [], "usage_unknown_command", undefined],
    ["lst", [], "usage_unknown_command", "did you mean skillshelf list?"],
    ["valdate", ["x"], "usage_unknown_command", "did you mean skillshelf validate?"],
    ["list", ["--jsn"], "usage_unknown_option", "did you mean --json?"],
    ["list", ["--bogus"], "usage_unknown_option", undefined],
    ["list", ["--kind", "bogus"], "usage_invalid_value", undefined],
    ["list", ["--kind", "skils"], "usage_invalid_value", "did you mean --kind skills?"],
    ["list", ["--cwd", "/nonexistent/folder"], "usage_invalid_value", undefined],
    ["list", ["--cwd"], "usage_missing_argument", undefined],
    ["list", ["extra"], "usage_extra_argument", undefined],
    ["validate", [], "usage_missing_argument", undefined],
    ["validate", ["--strict-keys", "x"], "usage_invalid_value", undefined],
    ["catalog", ["--limit", "500"], "usage_invalid_value", undefined],
    ["catalog", ["--limit", "0"], "usage_invalid_value", undefined],
    ["catalog", ["--budget", "-5"], "usage_value_starts_with_dash", undefined],
    ["catalog", ["--format", "html"], "usage_invalid_value", undefined],
    ["show", [], "usage_missing_argument", undefined],
    ["show", ["a", "b"], "usage_extra_argument", undefined],
    ["show", ["a", "--kind", "promts"], "usage_invalid_value", "did you mean --kind prompts?"],
    ["sources", ["lst"], "usage_invalid_value", "did you mean skillshelf sources list?"],
    ["sources", ["add"], "usage_missing_argument", undefined],
    ["search", [], "usage_missing_argument", undefined],
    ["prompt", [], "usage_missing_argument", undefined],
    ["prompt", ["--loud", "review"], "usage_unknown_option", undefined],
  ])("%s %j is %s", async (command, args, code, hint) => {
    const env = { HOME: "/nonexistent" };
    const json = await runMain([command, "--json", ...args], { env });
    expect(json.status).toBe(2);
    const [diagnostic] = JSON.parse(json.stdout).diagnostics;
    expect(diagnostic).toMatchObject({ severity: "error", code });
    if (hint !== undefined) expect(diagnostic.hint).toBe(hint);
    else expect(diagnostic.hint).not.toMatch(/did you mean/);
    const text = await runMain([command, ...args], { env });
    expect(text.status).toBe(2);
    expect(text.stderr).toMatch(new RegExp(`^skillshelf: ${code}`));
    expect(text.stderr).toContain("hint: ");
    expect(text.stdout + text.stderr).not.toMatch(/\n\s+at /);
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

describe("output to a slow reader", () => {
  it("arrives whole before the bin exits, however long it is", async () => {
    // 400 skills: a listing over three times a pipe's buffer, read a little at a time
    const project = testdir(
      Object.fromEntries(
        Array.from({ length: 400 }, (_, index) => [
          `.skillshelf/skills/skill-${index}/SKILL.md`,
          `---\nname: skill-${index}\ndescription: ${"A skill that is described at some length. ".repeat(4)}\n---\nbody\n`,
        ]),
      ),
    );
    const child = spawn(process.execPath, [BIN, "list", "--json", "--cwd", project], {
      env: { PATH: process.env.PATH ?? "", HOME: testdir() },
    });
    // each chunk taken, then the pipe left full a while before the next
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), 3);
    });
    const status = await new Promise((resolve) => child.on("close", resolve));
    expect(status).toBe(0);
    const text = Buffer.concat(chunks).toString("utf8");
    expect(text.length).toBeGreaterThan(3 * 65_536);
    const listed = JSON.parse(text) as { skills: unknown[] };
    expect(listed.skills).toHaveLength(400);
  });
});

describe("the README's way onto the PATH (issue 23, item 13)", () => {
  it("links a command that runs from any folder", () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const line = readme.split("\n").find((text) => text.startsWith("mkdir -p ~/.local/bin"));
    expect(line).toBeDefined();
    const home = testdir();
    execFileSync("sh", ["-c", line as string], {
      cwd: REPO,
      env: { HOME: home, PATH: "/usr/bin:/bin" },
    });
    // found on the PATH, as a person's shell finds it
    const version = execFileSync("sh", ["-c", "skillshelf --version"], {
      cwd: testdir(),
      env: {
        HOME: home,
        PATH: [join(home, ".local", "bin"), dirname(process.execPath), "/usr/bin", "/bin"].join(
          ":",
        ),
      },
      encoding: "utf8",
    });
    expect(version).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it("and the command's own README does not send people to npm install -g", () => {
    const readme = readFileSync(join(REPO, "packages", "cli", "README.md"), "utf8");
    expect(readme).not.toContain("npm install -g");
  });
});
