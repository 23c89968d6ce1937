import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import commonjs from "@rollup/plugin-commonjs";
import json from "@rollup/plugin-json";
import { nodeResolve } from "@rollup/plugin-node-resolve";
import { build } from "esbuild";
import { rollup } from "rollup";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import webpack from "webpack";
import { installPacked, packAll, REPO } from "./_scratch.js";

// Issue 57, item 1: a harness bundled as VS Code extensions and single-file CLIs ship it, with
// each bundler's ordinary settings, run from a folder with no node_modules, loads the corpus as
// the same harness does from node_modules.

/** The corpus as the repository vendors it (test-utils). */
const CORPUS_DIR = join(REPO, "packages", "test-utils", "corpus");
const temp = mkdtempSync(join(tmpdir(), "skillshelf-bundles-"));
const project = join(temp, "project");
const corpus = join(temp, "corpus");
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** A harness reading the corpus through every reader a host embeds, printing what it found. */
const HARNESS = `import { buildCatalogView } from "@skillshelf/catalog-view";
import { loadPromptTemplates } from "@skillshelf/prompts-loader";
import { loadSkills, modelVisibleSkills } from "@skillshelf/skills-loader";

const corpus = process.argv[2];
const root = (kind) => ({ path: corpus + "/" + kind, scope: "user", source: "corpus", origin: "corpus", precedence: 1, trust: "trusted", containment: corpus });
const skills = loadSkills({ cwd: corpus, home: corpus, env: {}, roots: [root("skills")] });
const prompts = loadPromptTemplates({ cwd: corpus, home: corpus, env: {}, roots: [root("prompts")] });
const view = buildCatalogView({ skills: modelVisibleSkills(skills.items), budget: 4096 });
console.log(JSON.stringify({
  skills: skills.items.map((skill) => [skill.name, skill.description]),
  codes: skills.diagnostics.map((diagnostic) => diagnostic.code),
  prompts: prompts.items.map((template) => template.name),
  listed: view.text.length,
}));
`;

const SLIDES = `---
name: slides
description: "Presentation creation, editing, and analysis. When asked to work with presentations (.pptx files) for: (1) Creating new presentations, (2) Modifying content"
license: Proprietary. LICENSE.txt has complete terms
metadata:
  authors:
    - name: Ada
      role: maintainer
---
# Slides
`;

const run = (command: string, args: readonly string[], cwd: string) =>
  spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", npm_config_loglevel: "error" },
  });

/** The harness run with node from `dir`, its output parsed. */
function harnessOutput(dir: string, file: string): unknown {
  const ran = run(process.execPath, [file, corpus], dir);
  expect(ran.stderr).toBe("");
  expect(ran.status).toBe(0);
  return JSON.parse(ran.stdout);
}

/**
 * A plug-in's function: these packages type their ES module build as CommonJS (a `default`
 * property), while Node hands an ES module import the function itself.
 */
function defaultOf<T>(imported: T | { readonly default: T }): T {
  return typeof imported === "object" && imported !== null && "default" in imported
    ? imported.default
    : (imported as T);
}

/** Each bundler's ordinary build of the harness for Node, in ES module or CommonJS output. */
const BUNDLERS: Record<string, (format: "esm" | "cjs", out: string) => Promise<void>> = {
  esbuild: async (format, out) => {
    await build({
      entryPoints: [join(project, "harness.mjs")],
      bundle: true,
      platform: "node",
      format,
      outfile: out,
      logLevel: "silent",
    });
  },
  rollup: async (format, out) => {
    const bundle = await rollup({
      input: join(project, "harness.mjs"),
      plugins: [nodeResolve({ preferBuiltins: true }), defaultOf(commonjs)(), defaultOf(json)()],
      onwarn: () => {},
    });
    await bundle.write({
      file: out,
      format: format === "esm" ? "es" : "cjs",
      inlineDynamicImports: true,
    });
    await bundle.close();
  },
  webpack: (format, out) =>
    new Promise((resolve, reject) => {
      const esm = format === "esm";
      webpack(
        {
          mode: "production",
          target: "node20",
          entry: join(project, "harness.mjs"),
          context: project,
          output: {
            path: join(out, ".."),
            filename: out.slice(out.lastIndexOf("/") + 1),
            library: { type: esm ? "module" : "commonjs2" },
            ...(esm ? { module: true, chunkFormat: "module" } : {}),
          },
          ...(esm ? { experiments: { outputModule: true } } : {}),
          optimization: { minimize: false },
        },
        (error, stats) => {
          if (error !== null && error !== undefined) reject(error);
          else if (stats?.hasErrors()) reject(new Error(stats.toString("errors-only")));
          else resolve();
        },
      );
    }),
};

describe("a harness bundled without node_modules (issue 57, item 1)", () => {
  let expected: unknown;
  beforeAll(() => {
    cpSync(join(CORPUS_DIR, "skills"), join(corpus, "skills"), { recursive: true });
    cpSync(join(CORPUS_DIR, "prompts"), join(corpus, "prompts"), { recursive: true });
    // frontmatter as anthropics' pptx writes it, and a list of maps: only the full parser reads them
    mkdirSync(join(corpus, "skills", "slides"), { recursive: true });
    writeFileSync(join(corpus, "skills", "slides", "SKILL.md"), SLIDES);
    const packs = join(temp, "packs");
    expect(packAll(packs).status).toBe(0);
    const installed = installPacked(project, packs, [
      "skills-loader",
      "prompts-loader",
      "catalog-view",
    ]);
    expect(installed.status).toBe(0);
    writeFileSync(join(project, "harness.mjs"), HARNESS);
    expected = harnessOutput(project, "harness.mjs");
  }, 300_000);

  it("reads the corpus from node_modules: skills whose YAML only the full parser reads included", () => {
    const { skills, codes } = expected as { skills: [string, string][]; codes: string[] };
    expect(skills.length).toBeGreaterThan(150);
    expect(skills).toContainEqual([
      "slides",
      "Presentation creation, editing, and analysis. When asked to work with presentations (.pptx files) for: (1) Creating new presentations, (2) Modifying content",
    ]);
    expect(codes).toContain("frontmatter_invalid");
  });

  for (const [bundler, bundle] of Object.entries(BUNDLERS))
    for (const format of ["esm", "cjs"] as const)
      it(`reads it the same from ${bundler}'s ${format} bundle, alone in a folder`, async () => {
        const built = mkdtempSync(join(temp, `${bundler}-${format}-`));
        const file = `harness.${format === "esm" ? "mjs" : "cjs"}`;
        await bundle(format, join(built, file));
        const alone = mkdtempSync(join(temp, "alone-"));
        copyFileSync(join(built, file), join(alone, file));
        expect(harnessOutput(alone, file)).toEqual(expected);
      }, 300_000);
});
