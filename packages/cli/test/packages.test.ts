import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { digestTree, resolveEnvironment } from "@skillshelf/core";
import { observeCopyFacts } from "@skillshelf/store";
import { installPackage } from "@skillshelf/store/writers";
import { testdir, testEnvironment } from "@skillshelf/test-utils";
import { validateIndex, validatePackage } from "@skillshelf/validation";
import { describe, expect, it } from "vitest";
import { REPO, runMain } from "./_run.js";

const LIBRARY = join(REPO, "examples", "library");
const EXAMPLE_INDEX = join(LIBRARY, "library.yaml");

/** A private home and project; `run` runs skillshelf in the project with that home. */
function sandbox() {
  const { home, cwd, configDir } = testEnvironment();
  const run = async (...args: string[]) =>
    await runMain(args, { cwd, env: { HOME: home, SKILLSHELF_HOME: configDir } });
  return {
    home,
    cwd,
    configDir,
    run,
    environment: resolveEnvironment({ home, cwd, configDir, env: {} }),
  };
}

describe("the example index", () => {
  it("pins every package's current tree digest, and every package is valid", () => {
    const index = validateIndex(join(LIBRARY, "library.yaml"));
    expect(index.diagnostics).toEqual([]);
    expect(index.rows.map((row) => `${row.kind}:${row.name}`)).toEqual([
      "skill:pdf-forms",
      "skill:semver-check",
      "plugin:release-kit",
      "prompt:commit-message",
    ]);
    for (const row of index.rows) {
      const result = validatePackage(join(LIBRARY, "packages", row.name), { mode: "strict" });
      expect({
        name: row.name,
        diagnostics: result.diagnostics.filter((d) => d.severity !== "info"),
      }).toEqual({ name: row.name, diagnostics: [] });
      expect(result.manifest).toMatchObject({ id: row.name, kind: row.kind, version: row.version });
    }
  });
});

describe("skillshelf validate, packages and indexes", () => {
  it("tells packages and indexes by their files and reports their findings", async () => {
    const { run } = sandbox();
    const good = await run(
      "validate",
      "--json",
      join(LIBRARY, "packages", "release-kit"),
      join(LIBRARY, "library.yaml"),
    );
    expect(good.status).toBe(0);
    const verdict = JSON.parse(good.stdout) as {
      results: { kind: string; valid: boolean; names: string[]; prerequisites: unknown[] }[];
    };
    expect(
      verdict.results.map((result) => [result.kind, result.valid, result.names.length]),
    ).toEqual([
      ["package", true, 4],
      ["index", true, 4],
    ]);
    expect(verdict.results[0]?.prerequisites).toEqual([
      { type: "command", identifier: "build-release", steps: ["build"] },
    ]);
    const broken = testdir({ "plugin.json": '{"name":"x"}' });
    const bad = await run("validate", broken);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain("key_missing");
    expect((await run("validate", "--kind", "nonsense", broken)).status).toBe(2);
  });
});

describe("skillshelf sources", () => {
  it("adds, lists and removes an index of a scope", async () => {
    const { run } = sandbox();
    const market = testdir({
      ".claude-plugin/marketplace.json": JSON.stringify({
        name: "m",
        plugins: [{ name: "tools", source: "./tools", description: "Handy tools" }],
      }),
    });
    expect(await run("sources", "add", market, "--project")).toMatchObject({
      status: 0,
      stdout: expect.stringContaining("added"),
    });
    expect((await run("sources", "add", market, "--project")).stdout).toContain("already");
    const listed = JSON.parse((await run("sources", "list", "--json")).stdout) as {
      indexes: { scope: string; kind: string; format: string; rows: number; path: string }[];
    };
    expect(
      listed.indexes.map((index) => [index.scope, index.kind, index.format, index.rows]),
    ).toEqual([["project", "added", "marketplace", 1]]);
    expect(listed.indexes[0]?.path).toBe(join(market, ".claude-plugin", "marketplace.json"));
    expect((await run("sources", "remove", market, "--project")).status).toBe(0);
    expect((await run("sources", "remove", market, "--project")).status).toBe(1);
    expect(await run("sources", "add", testdir(), "--user")).toMatchObject({
      status: 1,
      stderr: expect.stringContaining("index_missing"),
    });
    expect((await run("sources", "add", market, "--user", "--project")).status).toBe(2);
    expect((await run("sources", "frobnicate")).status).toBe(2);
  });
});

/** Install an example package into a scope of the sandbox, as a plan would. */
function installExample(
  environment: ReturnType<typeof sandbox>["environment"],
  scope: "user" | "project",
  id: string,
) {
  const source = join(LIBRARY, "packages", id);
  return installPackage({
    environment,
    scope,
    staged: { dir: source, digest: digestTree(source).digest },
    origin: { source: { type: "local", path: source } },
    reviewed: observeCopyFacts({ environment, scope, id }),
  });
}

describe("skillshelf list --kind packages", () => {
  it("lists installed copies with their state, the overridden ones with --all", async () => {
    const { run, environment } = sandbox();
    installExample(environment, "user", "semver-check");
    installExample(environment, "project", "semver-check");
    const damaged = installExample(environment, "user", "pdf-forms");
    writeFileSync(join(damaged.dir, "SKILL.md"), "edited\n");
    type Row = { name: string; scope: string; state: string; version: string; shadowedBy?: string };
    const rows = async (all: boolean) =>
      (
        JSON.parse(
          (await run("list", "--kind", "packages", "--json", ...(all ? ["--all"] : []))).stdout,
        ) as { packages: Row[] }
      ).packages.map((row) => [
        row.name,
        row.scope,
        row.state,
        row.version,
        row.shadowedBy === undefined ? "" : "overridden",
      ]);
    expect(await rows(false)).toEqual([
      ["pdf-forms", "user", "damaged", "1.2.0", ""],
      ["semver-check", "project", "loadable", "0.3.1", ""],
    ]);
    expect(await rows(true)).toEqual([
      ["pdf-forms", "user", "damaged", "1.2.0", ""],
      ["semver-check", "project", "loadable", "0.3.1", ""],
      ["semver-check", "user", "shadowed", "0.3.1", "overridden"],
    ]);
    const text = await run("list", "--kind", "packages");
    expect(text.stdout).toContain("2 installed packages: 1 loadable.");
    expect(text.stderr).toContain("content_drift");
  });
});

describe("skillshelf search", () => {
  it("searches every index and shows where a package is installed", async () => {
    const { run, environment } = sandbox();
    installExample(environment, "user", "semver-check");
    const extra = join(testdir(), "index.yaml");
    writeFileSync(
      extra,
      JSON.stringify([
        {
          kind: "plugin",
          name: "versioning-guide",
          description: "How we version releases",
          sourceUrl: "./x",
          version: "1.0.0",
          sha256: "a".repeat(64),
        },
      ]),
    );
    // the example index is the demo's: a real user's search never sees it
    expect(JSON.parse((await run("search", "pdf", "--json")).stdout).results).toEqual([]);
    const found = JSON.parse(
      (await run("search", "version", "--json", "--from", extra, "--from", EXAMPLE_INDEX)).stdout,
    ) as {
      matchMode: string;
      results: {
        name: string;
        origin: string;
        installed: { scope: string; state: string; version: string }[];
      }[];
    };
    expect(found.matchMode).toBe("all");
    expect(found.results.map((result) => [result.name, result.origin, result.installed])).toEqual([
      ["versioning-guide", "from", []],
      ["semver-check", "from", [{ scope: "user", state: "loadable", version: "0.3.1" }]],
    ]);
    const text = await run("search", "semver", "--from", EXAMPLE_INDEX);
    expect(text.stdout).toContain("installed: user loadable");
    expect(
      (await run("search", "release", "--kind", "fleet", "--json", "--from", EXAMPLE_INDEX)).stdout,
    ).toContain('"name": "release-kit"');
    expect((await run("search")).status).toBe(2);
    expect((await run("search", "x", "--kind", "theme")).status).toBe(2);
  });
});
