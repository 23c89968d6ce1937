import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chainedLinkTree, packageTree, skillFile, testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { runCli, runMain } from "../test/_run.js";

// Each case is a defect issue 8 reports, reproduced before it was fixed.

const ESC = "\u001b";
const HOSTILE = `${ESC}[2J${ESC}[31mred${ESC}]0;title\u0007 \u202eevil\u009b`;
// a raw control byte or a bidirectional override, anywhere but in a line break or tab
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the bytes to look for
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function homeEnv(): Record<string, string> {
  const home = testdir();
  return { HOME: home, SKILLSHELF_HOME: join(home, ".config", "skillshelf") };
}

describe("item 1: skillshelf validate on a chained .. link", () => {
  it("calls the package invalid with tree_link_escape", async () => {
    const dir = testdir(chainedLinkTree());
    const run = await runMain(["validate", "--json", dir], { env: homeEnv() });
    expect(run.status).toBe(1);
    const codes = JSON.parse(run.stdout).results[0].diagnostics.map(
      (d: { code: string }) => d.code,
    );
    expect(codes).toContain("tree_link_escape");
  });
});

describe("item 5: a FIFO never blocks a command", () => {
  it("validate on a package whose plugin.json is a FIFO ends with not_a_file", async () => {
    const dir = testdir(packageTree({ id: "pdf" }));
    execFileSync("sh", ["-c", "rm plugin.json && mkfifo plugin.json"], { cwd: dir });
    // a process of its own: a read that blocked would block this one too
    const run = runCli(["validate", "--json", dir], { env: homeEnv(), timeoutMs: 20_000 });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('"not_a_file"');
  });

  it("list with a SKILL.md that is a FIFO ends", async () => {
    const cwd = testdir({ ".skillshelf/skills/good/SKILL.md": skillFile("good", "Fine.") });
    mkdirSync(join(cwd, ".skillshelf/skills/pipe"));
    execFileSync("mkfifo", [join(cwd, ".skillshelf/skills/pipe/SKILL.md")]);
    const run = runCli(["list", "--json"], { cwd, env: homeEnv(), timeoutMs: 20_000 });
    expect(run.signal).toBeNull();
    expect(JSON.parse(run.stdout).skills.map((s: { name: string }) => s.name)).toEqual(["good"]);
  });
});

describe("item 6: terminal output cannot be hijacked", () => {
  const folder = `evil${ESC}[31m\nname`;
  const project = () =>
    testdir({
      ".skillshelf/skills/hostile/SKILL.md": skillFile("hostile", `Looks fine. ${HOSTILE}`),
      [`.skillshelf/skills/${folder}/SKILL.md`]: skillFile("split", "A row that tries to split."),
      ".skillshelf/library.yaml": [
        "- kind: skill",
        "  name: hostile-row",
        `  description: ${JSON.stringify(`A row. ${HOSTILE}`)}`,
        "  sourceUrl: ./nowhere",
        "  version: 1.0.0",
        `  sha256: ${"ab".repeat(32)}`,
        "",
      ].join("\n"),
    });

  it.each([
    ["show", ["show", "hostile"]],
    ["list", ["list"]],
    ["list --all --kind all", ["list", "--all", "--kind", "all"]],
    ["catalog", ["catalog"]],
    ["show with a hostile name", ["show", `nope${ESC}[2J`]],
    ["search", ["search", "row"]],
    ["sources list", ["sources", "list"]],
  ])("%s prints no raw control byte", async (_name, args) => {
    const run = await runMain(args, { cwd: project(), env: homeEnv() });
    expect(RAW_CONTROL.test(run.stdout), run.stdout).toBe(false);
    expect(RAW_CONTROL.test(run.stderr), run.stderr).toBe(false);
  });

  it("shows the escapes instead, and keeps every row on one line", async () => {
    const cwd = project();
    const shown = (await runMain(["show", "hostile"], { cwd, env: homeEnv() })).stdout;
    expect(shown).toContain("\\x1b[2J\\x1b[31mred\\x1b]0;title\\x07 \\u202eevil\\x9b");
    const listed = (await runMain(["list"], { cwd, env: homeEnv() })).stdout;
    const row = listed.split("\n").find((line) => line.startsWith("split"));
    expect(row).toContain("evil\\x1b[31m\\nname");
  });

  it("validate prints a folder name with a newline on one line", async () => {
    const cwd = project();
    const run = await runMain(["validate", `.skillshelf/skills/${folder}`], {
      cwd,
      env: homeEnv(),
    });
    expect(RAW_CONTROL.test(run.stdout)).toBe(false);
    expect(run.stdout.split("\n")[0]).toContain("evil\\x1b[31m\\nname");
  });

  it("keeps JSON output exact", async () => {
    const run = await runMain(["list", "--json"], { cwd: project(), env: homeEnv() });
    const skills = JSON.parse(run.stdout).skills as {
      name: string;
      description: string;
      path: string;
    }[];
    expect(skills.find((skill) => skill.name === "hostile")?.description).toBe(
      `Looks fine. ${HOSTILE}`,
    );
    expect(skills.find((skill) => skill.name === "split")?.path).toContain(folder);
  });

  it("prompt escapes what it prints but keeps the template's lines", async () => {
    const cwd = testdir({ ".skillshelf/prompts/go.md": `Line one ${ESC}[2J\r\nLine two\n` });
    const run = await runMain(["prompt", "go"], { cwd, env: homeEnv() });
    expect(run.stdout).toBe("Line one \\x1b[2J\r\nLine two\n");
  });
});
