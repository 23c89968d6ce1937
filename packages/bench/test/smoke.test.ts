import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPromptTemplates, substituteArguments } from "@skillshelf/prompts-loader";
import { createSkillCache } from "@skillshelf/skills-loader";
import { afterAll, describe, expect, it } from "vitest";
import { rawParse, rawPromptParse, walkAndRead } from "../src/baseline.js";
import { generateSkillTree } from "../src/generate.js";
import { largeTemplate, writePromptTree } from "../src/generate-prompts.js";
import { loadTree, median, winnersOf } from "../src/measure.js";

// a smoke run at a small size: the benchmark's own checks, no timing
describe("benchmark smoke run", () => {
  const dir = mkdtempSync(join(tmpdir(), "skillshelf-bench-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const tree = generateSkillTree(dir, 300);

  it("generates the same tree from the same seed", () => {
    const again = mkdtempSync(join(tmpdir(), "skillshelf-bench-"));
    try {
      generateSkillTree(again, 300);
      expect(
        winnersOf(
          rawParse(tree.roots.map((root) => ({ ...root, path: root.path.replace(dir, again) }))),
        ).size,
      ).toBe(winnersOf(rawParse(tree.roots)).size);
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  });

  it("has loadSkills, cold and cached, pick the same winners as the raw-parse baseline", () => {
    const raw = winnersOf(rawParse(tree.roots));
    const cache = createSkillCache();
    const cold = loadTree(tree.roots, cache);
    const cached = loadTree(tree.roots, cache);
    expect(tree.files).toBe(300);
    expect(winnersOf(cold)).toEqual(raw);
    expect(cached).toEqual(cold);
    expect(cache.stats()).toMatchObject({ hits: 300, misses: 300 });
    expect(cold.collisions.length).toBeGreaterThan(0);
    expect(cold.diagnostics.filter((diagnostic) => diagnostic.severity === "error")).toEqual([]);
    expect(walkAndRead(tree.roots)).toBeGreaterThan(0);
  });

  it("computes medians", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("runs the built benchmark end to end at a tiny size", () => {
    const script = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "run.js");
    const output = execFileSync(
      process.execPath,
      // not the suites whose whole work is machinery other tests run: the demo (the quick start),
      // `bundle` (packing, installing, bundling: tools' bundles and release tests), `registries`
      // (Verdaccio and the distribution registry: the npm and OCI source tests), `offline-bundle`
      // and `advisories` (the CLI's bundles and advisories tests run the same commands)
      [
        script,
        ...["--count", "60", "--rounds", "1"],
        ...["--skip", "demo,bundle,registries,offline-bundle,advisories"],
      ],
      {
        encoding: "utf8",
      },
    );
    expect(output).toContain("Winners identical to raw-parse: yes.");
    expect(output).toMatch(/\| 60 \| nested \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \|/);
    expect(output).toMatch(/library.yaml against marketplace.json at 10,000 rows: [\d.]+×/);
    expect(output).toMatch(/\| `remove <one id>` \| \d+ \| [\d.]+× \|/);
    expect(output).toContain("both sides found the same templates: yes");
    expect(output).toMatch(/\| 16× hostile \(16 MiB of unclosed \$\{\) \| [\d.]+ \|/);
    expect(output).toMatch(/\| loadSkills cached \| [\d.]+ \| [\d.]+ \| [\d.]+× \|/);
    expect(output).toContain("Trees digested in one pass: 60 of 60.");
    expect(output).toMatch(/\| digestTree \| [\d.]+ \| [\d.]+ \| [\d.]+× \|/);
    expect(output).toMatch(/\| readInventory, 60 installed \| [\d.]+ \|/);
    expect(output).toMatch(/\| last 15 \| [\d.]+ \|/);
    expect(output).toMatch(/\| restoreFromLock \+ apply \| [\d.]+ \| [\d.]+ \| [\d.]+× \|/);
    expect(output).toMatch(
      /\| skillshelf install \(no targets\), process start to exit \| [\d.]+ \|/,
    );
    expect(output).toMatch(
      /\| 2-skill collection, local git repository \| \d+ \| \d+ \| [\d.]+× \|/,
    );
    expect(output).toMatch(/`skillshelf verify` over 6 installed copies/);
    expect(output).toMatch(
      /of 20 real skills \(the corpus's skills a plain install takes, \d+ of them, in turn under new names: \d+ files, [\d.]+ MB\) in 20 nested category folders/,
    );
    expect(output).toMatch(/\| 10 \| 10 \| [\d.]+ \| [\d.]+ \|/);
    expect(output).toMatch(/\| skillshelf list --all --json \| \d+ \| [\d.]+× \|/);
    expect(output).toMatch(/`list --all` found \d+ locations in \d+ identity rows/);
    expect(output).toMatch(
      /`skillshelf audit` over 10 real skills .* median ratio [\d.]+× \(\d+ findings\)/,
    );
    expect(output).toMatch(/beside the same tree with \d+ descriptions \(\d+%\) broken/);
    expect(output).toMatch(/`skillshelf --version` \d+ ms \([\d.]+×\), `skillshelf list` \d+ ms/);
    expect(output).toMatch(/`skills\/list` of \d+ real skills/);
    // every suite once, each spawning the CLI: about 45 s alone, several times that
    // beside the whole suite on two cores, so its hang guard is the workspace's five times over
  }, 600_000);
});

describe("prompt benchmark pieces", () => {
  it("generates templates the loader and the baseline both read, and large templates of the asked size", () => {
    const dir = mkdtempSync(join(tmpdir(), "skillshelf-bench-"));
    try {
      const { roots } = writePromptTree(dir, 40);
      const loaded = loadPromptTemplates({
        cwd: "/nonexistent",
        home: "/nonexistent",
        env: {},
        roots,
      });
      expect(loaded.items.map((template) => template.name).sort()).toEqual(
        [...rawPromptParse(roots).keys()].sort(),
      );
      expect(loaded.diagnostics.filter((one) => one.severity === "error")).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const template = largeTemplate(65_536, 100);
    expect(template.length).toBeGreaterThan(60_000);
    expect(template.match(/\$/g)?.length).toBe(100);
    expect(substituteArguments(largeTemplate(5_000, 0, true), { args: ["a"] })).toBe(
      largeTemplate(5_000, 0, true),
    );
  });
});
