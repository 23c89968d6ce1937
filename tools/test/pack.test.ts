import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileStrictly, REPO } from "./_scratch.js";

const temp = mkdtempSync(join(tmpdir(), "skillshelf-packs-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The README's harness in one module format: `.mts` (ES module) or `.cts` (CommonJS). */
const harness = (format: string) => `import { buildCatalogView } from "@skillshelf/catalog-view";
import { createSkillCache, loadSkills, modelVisibleSkills } from "@skillshelf/skills-loader";

const { items } = loadSkills({ cwd: process.cwd(), home: process.cwd(), env: {}, host: "claude-code", cache: createSkillCache() });
const text: string = buildCatalogView({ skills: modelVisibleSkills(items), budget: 4096 }).text;
console.log(JSON.stringify({ format: "${format}", names: items.map((skill) => skill.name), listed: text.includes("deploy") }));
`;

const run = (command: string, args: readonly string[], cwd: string) =>
  spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, npm_config_loglevel: "error" },
  });

describe("the packed packages (issue 30, items 4 and 5)", () => {
  it("install from their tarballs alone, type-check strictly and run from ES modules and CommonJS", () => {
    const packs = join(temp, "packs");
    const packed = run(process.execPath, [join(REPO, "scripts", "pack-packages.mjs"), packs], REPO);
    expect(packed.stderr).toBe("");
    expect(packed.status).toBe(0);
    const project = join(temp, "project");
    mkdirSync(join(project, ".claude", "skills", "deploy"), { recursive: true });
    writeFileSync(
      join(project, ".claude", "skills", "deploy", "SKILL.md"),
      "---\nname: deploy\ndescription: Deploy the app.\n---\nSteps.\n",
    );
    writeFileSync(join(project, "package.json"), '{ "name": "harness", "private": true }\n');
    // nothing of @skillshelf is on the registry: every one must come from a sibling tarball
    const installed = run(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        join(packs, "skillshelf-skills-loader-0.0.0.tgz"),
        join(packs, "skillshelf-catalog-view-0.0.0.tgz"),
      ],
      project,
    );
    expect(installed.stderr).toBe("");
    expect(installed.status).toBe(0);
    writeFileSync(join(project, "harness.mts"), harness("esm"));
    writeFileSync(join(project, "harness.cts"), harness("cjs"));
    const compiled = compileStrictly(project, ["harness.mts", "harness.cts"], { outDir: "out" });
    expect(compiled.stdout).toBe("");
    expect(compiled.status).toBe(0);
    for (const [file, format] of [
      ["harness.mjs", "esm"],
      ["harness.cjs", "cjs"],
    ] as const) {
      const ran = run(process.execPath, [join("out", file)], project);
      expect(ran.status).toBe(0);
      expect(JSON.parse(ran.stdout)).toEqual({ format, names: ["deploy"], listed: true });
    }
  }, 300_000);

  it("keep @skillshelf/resources light: nothing that fetches, installs or serves (issue 57, item 2)", () => {
    const project = join(temp, "light");
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, "package.json"), '{ "name": "light", "private": true }\n');
    const installed = run(
      "npm",
      ["install", "--no-audit", "--no-fund", join(temp, "packs", "skillshelf-resources-0.0.0.tgz")],
      project,
    );
    expect(installed.status).toBe(0);
    const listed = run("npm", ["ls", "--all", "--parseable"], project);
    // the first line is the project itself
    const packages = listed.stdout
      .trim()
      .split("\n")
      .slice(1)
      .map((path) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
    expect(packages.length).toBeLessThanOrEqual(20);
    // ours, and the two libraries the read path parses with
    expect(packages.filter((name) => !name.startsWith("@skillshelf/")).sort()).toEqual([
      "yaml",
      "zod",
    ]);
  }, 300_000);
});
