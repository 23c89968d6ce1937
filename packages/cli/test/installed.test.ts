import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { digestTree, resolveEnvironment } from "@skillshelf/core";
import { observeCopyFacts } from "@skillshelf/store";
import { installPackage } from "@skillshelf/store/writers";
import {
  packageTree,
  skillFile,
  type Tree,
  testdir,
  testEnvironment,
  writeTree,
} from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { runMain } from "./_run.js";

/** A home with a package `kit` installed through the store API (one skill, one prompt), and a project. */
function installedKit(project: Tree = { ".skillshelf/skills": null }) {
  const { home, cwd, configDir } = testEnvironment({ project });
  const environment = resolveEnvironment({ home, cwd, configDir, env: {} });
  const tree = packageTree({
    id: "kit",
    skills: ["kit-skill"],
    prompts: ["kit-prompt"],
  });
  const dir = testdir(tree);
  installPackage({
    environment,
    scope: "user",
    staged: { dir, digest: digestTree(dir).digest },
    origin: { source: { type: "local", path: dir } },
    reviewed: observeCopyFacts({ environment, scope: "user", id: "kit" }),
  });
  const run = async (args: string[], at: string = cwd) =>
    await runMain(args, { cwd: at, env: { HOME: home, SKILLSHELF_HOME: configDir } });
  return { home, cwd, configDir, run };
}

describe("an installed package reaches every read command", () => {
  it("is listed with its package id, shown, offered in the catalog and expanded", async () => {
    const { run } = installedKit();
    const listed = JSON.parse((await run(["list", "--kind", "all", "--json"])).stdout);
    expect(
      listed.skills.map((row: { name: string; source: string }) => [row.name, row.source]),
    ).toEqual([["kit-skill", "package:kit"]]);
    expect(
      listed.prompts.map((row: { name: string; source: string }) => [row.name, row.source]),
    ).toEqual([["kit-prompt", "package:kit"]]);
    expect(
      listed.packages.map((row: { name: string; state: string }) => [row.name, row.state]),
    ).toEqual([["kit", "loadable"]]);
    expect((await run(["list"])).stdout).toMatch(/kit-skill +package:kit +package +visible/);
    const shown = JSON.parse((await run(["show", "kit-skill", "--json"])).stdout);
    expect(shown.candidates).toMatchObject([
      { source: "package:kit", scope: "package", modelVisible: true },
    ]);
    const prompt = JSON.parse(
      (await run(["show", "--kind", "prompts", "kit-prompt", "--json"])).stdout,
    );
    expect(prompt).toMatchObject({ kind: "prompt", candidates: [{ source: "package:kit" }] });
    expect((await run(["catalog"])).stdout).toContain(
      "- kit-skill (source: package:kit; scope: package)",
    );
    expect((await run(["prompt", "kit-prompt", "app.ts"])).stdout).toBe(
      "Do kit-prompt with app.ts.\n",
    );
  });

  it("loses a name clash to the user library", async () => {
    const { configDir, run } = installedKit();
    writeTree(configDir, { "skills/kit-skill/SKILL.md": skillFile("kit-skill", "My own copy.") });
    const shown = JSON.parse((await run(["show", "kit-skill", "--json"])).stdout);
    expect(
      shown.candidates.map((candidate: { source: string; reason: string | null }) => [
        candidate.source,
        candidate.reason,
      ]),
    ).toEqual([
      ["skillshelf", null],
      ["package:kit", "precedence"],
    ]);
  });
});

describe("the project is found from any folder in it", () => {
  it("from a subfolder three levels down", async () => {
    const { cwd, run } = installedKit({
      ".skillshelf/skills/local/SKILL.md": skillFile("local", "The project's own."),
    });
    const deep = join(cwd, "src", "a", "b");
    mkdirSync(deep, { recursive: true });
    const listed = JSON.parse((await run(["list", "--json"], deep)).stdout);
    expect(listed.project).toBe(cwd);
    expect(listed.skills.map((row: { name: string }) => row.name)).toEqual(["kit-skill", "local"]);
  });

  it("as the git work tree's root when no folder holds .skillshelf/", async () => {
    const { cwd, run } = installedKit({
      ".agents/skills/shared/SKILL.md": skillFile("shared", "Shared."),
    });
    execFileSync("git", ["init", "--quiet"], { cwd });
    const deep = join(cwd, "pkg", "src");
    mkdirSync(deep, { recursive: true });
    const listed = JSON.parse((await run(["list", "--json"], deep)).stdout);
    expect(listed.project).toBe(cwd);
    expect(
      listed.skills.map((row: { name: string; source: string }) => [row.name, row.source]),
    ).toEqual([
      ["kit-skill", "package:kit"],
      ["shared", "agents"],
    ]);
  });
});
