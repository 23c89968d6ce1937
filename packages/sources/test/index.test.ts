import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveEnvironment } from "@skillshelf/core";
import {
  addRemoteScopeSource,
  addScopeSource,
  discoverLibrary,
  fetchRemoteIndex,
  parseRemoteIndex,
  readIndex,
  readScopeSources,
  removeScopeSource,
} from "@skillshelf/sources";
import {
  bareClone,
  CORPUS_DIR,
  gitEnv,
  gitRepo,
  testdir,
  testEnvironment,
  writeTree,
} from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

const digest = "ab".repeat(32);
const row = (name: string, extra: Record<string, unknown> = {}) => ({
  kind: "plugin",
  name,
  description: `The ${name} package`,
  sourceUrl: `./packages/${name}`,
  version: "1.0.0",
  sha256: digest,
  ...extra,
});

function indexFile(content: unknown, name = "library.yaml"): string {
  const dir = testdir();
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

const codes = (path: string) => readIndex(path).diagnostics.map((d) => `${d.severity}:${d.code}`);

describe("readIndex, library.yaml", () => {
  it("reads a YAML list, a JSON list and {entries}", () => {
    const yaml = indexFile(
      `# pinned\n- kind: skill\n  name: pdf\n  description: Fill PDF forms\n  sourceUrl: ./packages/pdf\n  version: 1.2.0\n  sha256: ${digest}\n  requires: [plugin:base]\n  category: documents\n  triggers: [pdf, forms]\n`,
    );
    const result = readIndex(yaml, "user");
    expect(result).toMatchObject({ format: "library", diagnostics: [] });
    expect(result.rows).toEqual([
      {
        kind: "skill",
        name: "pdf",
        description: "Fill PDF forms",
        version: "1.2.0",
        sha256: digest,
        sourceUrl: "./packages/pdf",
        source: { type: "local", path: join(yaml, "..", "packages", "pdf") },
        requires: ["plugin:base"],
        category: "documents",
        triggers: ["pdf", "forms"],
        format: "skillshelf",
        index: yaml,
        catalog: yaml,
        origin: "user",
      },
    ]);
    expect(readIndex(indexFile([row("a")], "library.json")).rows.map((r) => r.name)).toEqual(["a"]);
    expect(readIndex(indexFile({ entries: [row("a"), row("b")] })).rows.map((r) => r.name)).toEqual(
      ["a", "b"],
    );
  });

  it("drops malformed rows with a finding naming each, and keeps the rest", () => {
    const path = indexFile([
      row("good"),
      row("no-digest", { sha256: undefined }),
      row("Bad Name"),
      row("ranged", { version: "^1.0.0" }),
      row("bad-source", { sourceUrl: "ftp://example.com/x" }),
      row("bad-requires", { requires: ["pdf"] }),
      "not a row",
      row("hinted", {
        provides: [
          { kind: "skill", name: "a" },
          { kind: "skill", name: "a" },
        ],
      }),
      row("bad-hints", { provides: [{ kind: "plugin", name: "x" }] }),
      row("typo", { requries: ["skill:x"] }),
    ]);
    const result = readIndex(path);
    expect(result.rows.map((r) => r.name)).toEqual(["good", "hinted", "bad-hints", "typo"]);
    expect(result.rows.find((r) => r.name === "hinted")?.provides).toEqual([
      { kind: "skill", name: "a" },
    ]);
    expect(result.diagnostics.map((d) => [d.code, d.details?.row])).toEqual([
      ["index_row_invalid", 2],
      ["index_row_invalid", 3],
      ["index_row_invalid", 4],
      ["source_unsupported", 5],
      ["index_requirement_invalid", 6],
      ["index_row_invalid", 7],
      ["index_provides_ignored", 9],
      ["index_key_unknown", 10],
    ]);
    expect(result.diagnostics.every((d) => d.path === path)).toBe(true);
  });

  it("keeps the last of repeated rows, with a warning", () => {
    const result = readIndex(
      indexFile([row("a", { description: "first" }), row("a", { description: "second" })]),
    );
    expect(result.rows.map((r) => r.description)).toEqual(["second"]);
    expect(result.diagnostics.map((d) => d.code)).toEqual(["index_row_repeated"]);
  });

  it.each<[string, string, string]>([
    ["bad YAML", "- kind: [unclosed", "error:index_invalid"],
    ["bad JSON", "{ nope", "error:index_invalid"],
    ["a scalar", "just text", "error:index_invalid"],
  ])("refuses %s as a whole", (_name, text, code) => {
    expect(codes(indexFile(text, text.startsWith("{") ? "library.json" : "library.yaml"))).toEqual([
      code,
    ]);
  });

  it("reports an unreadable index", () => {
    expect(codes(join(testdir(), "absent.yaml"))).toEqual(["error:index_unreadable"]);
  });
});

describe("readIndex, marketplace.json", () => {
  it("reads every source form relative to the repository root", () => {
    const repo = testdir();
    mkdirSync(join(repo, ".claude-plugin"));
    const path = join(repo, ".claude-plugin", "marketplace.json");
    writeFileSync(
      path,
      JSON.stringify({
        name: "m",
        metadata: { pluginRoot: "./plugins" },
        plugins: [
          {
            name: "a",
            source: "./a",
            description: "A",
            version: "1.0.0",
            keywords: ["x"],
            category: "dev",
          },
          {
            name: "b",
            source: {
              source: "github",
              repo: "acme/b",
              ref: "v1",
              sha: "f".repeat(40),
              path: "pkg",
            },
          },
          { name: "c", source: { source: "url", url: "https://git.example.com/c.git" } },
          {
            name: "d",
            source: { source: "git-subdir", url: "acme/tools", path: "d", ref: "main" },
          },
          { name: "e", source: { source: "local", path: "./tools/e" } },
          { name: "f", source: { source: "url", url: "./" }, version: "v1" },
          { name: "g", source: { source: "npm", package: "g" } },
          { name: "h", source: "../outside" },
          { name: "Bad", source: "./bad" },
          { name: "s", source: "./", strict: false, skills: ["./skills/xlsx", "./skills/pdf/"] },
        ],
      }),
    );
    const result = readIndex(path);
    expect(result.format).toBe("marketplace");
    expect(Object.fromEntries(result.rows.map((r) => [r.name, r.source]))).toEqual({
      a: { type: "local", path: join(repo, "plugins", "a") },
      b: { type: "git", url: "https://github.com/acme/b.git", ref: "f".repeat(40), path: "pkg" },
      c: { type: "git", url: "https://git.example.com/c.git" },
      d: { type: "git", url: "https://github.com/acme/tools.git", ref: "main", path: "d" },
      e: { type: "local", path: join(repo, "tools", "e") },
      f: { type: "local", path: repo },
      s: { type: "local", path: join(repo, "plugins") },
    });
    expect(result.rows[0]).toMatchObject({
      kind: "plugin",
      format: "claude-code",
      sha256: undefined,
      version: "1.0.0",
      triggers: ["x"],
      category: "dev",
      catalog: "m",
    });
    expect(result.rows.find((r) => r.name === "s")?.provides).toEqual([
      { kind: "skill", name: "xlsx" },
      { kind: "skill", name: "pdf" },
    ]);
    expect(result.diagnostics.map((d) => [d.code, d.details?.name])).toEqual([
      ["version_invalid", "f"],
      ["source_unsupported", "g"],
      ["source_unsupported", "h"],
      ["index_row_invalid", "Bad"],
    ]);
  });

  it.each([
    ["plugins/alirezarezvani-claude-skills/.claude-plugin/marketplace.json", 29, { local: 29 }, []],
    [
      "plugins/anthropics-claude-plugins-official/.claude-plugin/marketplace.json",
      286,
      { git: 233, local: 53 },
      [],
    ],
    ["plugins/anthropics-skills/.claude-plugin/marketplace.json", 3, { local: 3 }, []],
    [
      "plugins/k-dense-ai-claude-scientific-skills/.claude-plugin/marketplace.json",
      1,
      { local: 1 },
      [],
    ],
    ["plugins/wshobson-agents/.claude-plugin/marketplace.json", 92, { local: 91, git: 1 }, []],
    ["plugins/wshobson-agents/.cursor-plugin/marketplace.json", 91, { local: 91 }, []],
    ["plugins/wshobson-agents/.agents/plugins/marketplace.json", 91, { local: 91 }, []],
    [
      "plugins/github-awesome-copilot/.github/plugin/marketplace.json",
      130,
      { local: 92, git: 38 },
      [],
    ],
    ["plugins/obra-superpowers/.agents/plugins/marketplace.json", 1, { local: 1 }, []],
    [
      "plugins/davila7-claude-code-templates/cli-tool/components/.claude-plugin/marketplace.json",
      0,
      {},
      ["error:index_invalid"],
    ],
  ])("reads the corpus' %s", (relative, count, types, diagnostics) => {
    const result = readIndex(join(CORPUS_DIR, relative));
    expect(result.rows.length).toBe(count);
    const counts: Record<string, number> = {};
    for (const r of result.rows) counts[r.source.type] = (counts[r.source.type] ?? 0) + 1;
    expect(counts).toEqual(types);
    expect(result.diagnostics.map((d) => `${d.severity}:${d.code}`)).toEqual(diagnostics);
    for (const r of result.rows)
      if (r.source.type === "local")
        expect(
          r.source.path.startsWith(join(CORPUS_DIR, relative.split("/").slice(0, 2).join("/"))),
        ).toBe(true);
  });
});

describe("discoverLibrary and scope sources", () => {
  it("merges bundled, user, user sources, project and --from indexes, later rows winning", () => {
    const { home, cwd, configDir } = testEnvironment();
    const environment = resolveEnvironment({ home, cwd, configDir, env: {} });
    const bundled = indexFile([
      row("a", { description: "bundled a" }),
      row("b", { description: "bundled b" }),
    ]);
    mkdirSync(configDir, { recursive: true });
    writeFileSync(
      join(configDir, "library.yaml"),
      JSON.stringify([row("b", { description: "user b" })]),
    );
    const extra = indexFile([row("c", { description: "source c" })]);
    expect(addScopeSource(environment, "user", extra)).toBe(true);
    expect(addScopeSource(environment, "user", extra)).toBe(false);
    mkdirSync(join(cwd, ".skillshelf"));
    writeFileSync(
      join(cwd, ".skillshelf", "library.yaml"),
      JSON.stringify([row("c", { description: "project c" })]),
    );
    const from = indexFile([row("a", { description: "from a" })]);
    const discovery = discoverLibrary(environment, { bundled, from: [from] });
    expect(discovery.rows.map((r) => [r.name, r.description, r.origin])).toEqual([
      ["a", "from a", "from"],
      ["b", "user b", "user"],
      ["c", "project c", "project"],
    ]);
    expect(discovery.indexes.map((index) => index.origin)).toEqual([
      "bundled",
      "user",
      "user",
      "project",
      "from",
    ]);
    expect(readScopeSources(environment, "user").sources).toEqual([{ type: "path", path: extra }]);
    expect(removeScopeSource(environment, "user", extra)).toBe(true);
    expect(removeScopeSource(environment, "user", extra)).toBe(false);
    expect(readScopeSources(environment, "user").sources).toEqual([]);
  });

  it("refuses to add a file that is not an index, and adds nothing", () => {
    const { home, cwd, configDir } = testEnvironment();
    const environment = resolveEnvironment({ home, cwd, configDir, env: {} });
    const plugin = testdir({ "plugin.json": JSON.stringify({ name: "x", version: "1.0.0" }) });
    const broken = join(testdir({ "library.yaml": "entries: [unclosed" }), "library.yaml");
    for (const path of [join(plugin, "plugin.json"), broken])
      expect(() => addScopeSource(environment, "user", path)).toThrow(
        expect.objectContaining({ code: "index_invalid", path }),
      );
    expect(readScopeSources(environment, "user").sources).toEqual([]);
  });

  it("reads a source written relative to its library, as a team commits it", () => {
    const { home, cwd, configDir } = testEnvironment();
    const environment = resolveEnvironment({ home, cwd, configDir, env: {} });
    const library = join(cwd, ".skillshelf");
    mkdirSync(join(cwd, "indexes"), { recursive: true });
    writeFileSync(join(cwd, "indexes", "library.yaml"), JSON.stringify([row("a")]));
    mkdirSync(library);
    writeFileSync(
      join(library, "sources.json"),
      JSON.stringify({ version: 1, sources: ["../indexes"] }),
    );
    expect(readScopeSources(environment, "project").sources).toEqual([
      { type: "path", path: join(cwd, "indexes") },
    ]);
    expect(discoverLibrary(environment).rows.map((r) => r.name)).toEqual(["a"]);
  });

  it("fetches a marketplace repository, offers its plugins from the repository, and refreshes it", async () => {
    const { home, cwd, configDir } = testEnvironment();
    const environment = resolveEnvironment({ home, cwd, configDir, env: {} });
    const env = gitEnv();
    const marketplace = (description: string) =>
      JSON.stringify({
        name: "m",
        plugins: [{ name: "tools", source: "./plugins/tools", description }],
      });
    const repo = gitRepo(
      [
        {
          tree: { ".claude-plugin/marketplace.json": marketplace("v1"), "plugins/tools/a.md": "a" },
        },
      ],
      env,
    );
    const url = bareClone(repo.path, env);
    const remote = parseRemoteIndex(url, cwd);
    expect(remote).toEqual({ url });
    await fetchRemoteIndex(environment, remote as NonNullable<typeof remote>, { env });
    expect(addRemoteScopeSource(environment, "user", { url })).toBe(true);
    expect(addRemoteScopeSource(environment, "user", { url })).toBe(false);
    const [tools] = discoverLibrary(environment).rows;
    expect(tools).toMatchObject({
      name: "tools",
      description: "v1",
      source: { type: "git", url, path: "plugins/tools" },
    });
    // a new commit is seen once the source is fetched again
    writeTree(repo.path, { ".claude-plugin/marketplace.json": marketplace("v2") });
    execFileSync("git", ["commit", "--quiet", "-am", "v2"], { cwd: repo.path, env });
    execFileSync("git", ["push", "--quiet", url, "main"], { cwd: repo.path, env });
    expect(discoverLibrary(environment).rows[0]?.description).toBe("v1");
    await fetchRemoteIndex(environment, { url }, { env });
    expect(discoverLibrary(environment).rows[0]?.description).toBe("v2");
    expect(removeScopeSource(environment, "user", url)).toBe(true);
    expect(discoverLibrary(environment).rows).toEqual([]);
  });

  it("refuses a repository that holds no index, or a file that is not one, keeping the last fetch", async () => {
    const { home, cwd, configDir } = testEnvironment();
    const environment = resolveEnvironment({ home, cwd, configDir, env: {} });
    const env = gitEnv();
    const none = bareClone(gitRepo([{ tree: { "README.md": "x" } }], env).path, env);
    await expect(fetchRemoteIndex(environment, { url: none }, { env })).rejects.toMatchObject({
      code: "index_missing",
    });
    const notIndex = bareClone(
      gitRepo([{ tree: { ".claude-plugin/marketplace.json": "{ nope" } }], env).path,
      env,
    );
    await expect(fetchRemoteIndex(environment, { url: notIndex }, { env })).rejects.toMatchObject({
      code: "index_invalid",
    });
    expect(readdirSync(join(configDir, "cache", "indexes"))).toEqual([]);
  });

  it("names a source that has not been fetched on this machine", () => {
    const { home, cwd, configDir } = testEnvironment();
    const environment = resolveEnvironment({ home, cwd, configDir, env: {} });
    mkdirSync(join(cwd, ".skillshelf"));
    writeFileSync(
      join(cwd, ".skillshelf", "sources.json"),
      JSON.stringify({ version: 1, sources: [{ url: "https://example.com/team/index.git" }] }),
    );
    expect(discoverLibrary(environment).diagnostics.map((d) => d.code)).toEqual([
      "index_not_fetched",
    ]);
  });

  it("finds the index in a folder source and reports sources that hold none", () => {
    const { home, cwd, configDir } = testEnvironment();
    const environment = resolveEnvironment({ home, cwd, configDir, env: {} });
    const repo = join(CORPUS_DIR, "plugins", "anthropics-skills");
    addScopeSource(environment, "project", repo);
    expect(discoverLibrary(environment).rows.map((r) => r.name)).toEqual([
      "claude-api",
      "document-skills",
      "example-skills",
    ]);
    expect(() => addScopeSource(environment, "project", testdir())).toThrow(
      expect.objectContaining({ code: "index_missing" }),
    );
    const missing = discoverLibrary(environment, { from: [join(testdir(), "none.yaml")] });
    expect(missing.diagnostics.map((d) => d.code)).toEqual(["index_missing"]);
  });

  it("refuses to rewrite a malformed sources.json and reads it as no sources", () => {
    const { home, cwd, configDir } = testEnvironment();
    const environment = resolveEnvironment({ home, cwd, configDir, env: {} });
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, "sources.json"), "[1, 2]");
    expect(readScopeSources(environment, "user").diagnostics.map((d) => d.code)).toEqual([
      "sources_invalid",
    ]);
    expect(() => addScopeSource(environment, "user", indexFile([]))).toThrow(
      expect.objectContaining({ code: "sources_invalid" }),
    );
  });
});
