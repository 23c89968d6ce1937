import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileStrictly, installPacked, packAll, runQuietly } from "./_scratch.js";

const temp = mkdtempSync(join(tmpdir(), "skillshelf-packs-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The README's harness in one module format: `.mts` (ES module) or `.cts` (CommonJS). */
const harness = (format: string) => `import { buildCatalogView } from "@skillshelf/catalog-view";
import { createSkillCache, loadSkills, modelVisibleSkills } from "@skillshelf/skills-loader";

const { items } = loadSkills({ cwd: process.cwd(), home: process.cwd(), env: {}, host: "claude-code", cache: createSkillCache() });
const text: string = buildCatalogView({ skills: modelVisibleSkills(items), budget: 4096 }).text;
console.log(JSON.stringify({ format: "${format}", names: items.map((skill) => skill.name), listed: text.includes("deploy") }));
`;

describe("the packed packages (issue 30, items 4 and 5)", () => {
  it("install from their tarballs alone, type-check strictly and run from ES modules and CommonJS", () => {
    const packs = join(temp, "packs");
    const packed = packAll(packs);
    expect(packed.stderr).toBe("");
    expect(packed.status).toBe(0);
    const project = join(temp, "project");
    mkdirSync(join(project, ".claude", "skills", "deploy"), { recursive: true });
    writeFileSync(
      join(project, ".claude", "skills", "deploy", "SKILL.md"),
      "---\nname: deploy\ndescription: Deploy the app.\n---\nSteps.\n",
    );
    // nothing of @skillshelf is on the registry: every one must come from a sibling tarball
    const installed = installPacked(project, packs, ["skills-loader", "catalog-view"]);
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
      const ran = runQuietly(process.execPath, [join("out", file)], project);
      expect(ran.status).toBe(0);
      expect(JSON.parse(ran.stdout)).toEqual({ format, names: ["deploy"], listed: true });
    }
  }, 300_000);

  it("keep @skillshelf/resources light: nothing that fetches, installs or serves (issue 57, item 2)", () => {
    const project = join(temp, "light");
    const installed = installPacked(project, join(temp, "packs"), ["resources"]);
    expect(installed.status).toBe(0);
    const listed = runQuietly("npm", ["ls", "--all", "--parseable"], project);
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
