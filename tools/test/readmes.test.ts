import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileStrictly, linkWorkspace, REPO, tsBlocks } from "./_scratch.js";

// Issue 57, item 3: a README's code is a program a reader can paste. Each block below is taken
// from its README as written, type-checked with strict TypeScript under `nodenext` against the
// built packages, and run in a project holding the corpus's skills; what it prints is checked.

/** The READMEs whose TypeScript is run, and what each block's run must print. */
const RUN: Readonly<Record<string, readonly RegExp[]>> = {
  "README.md": [/deploy/, /Ship it carefully\./],
  "packages/skills-loader/README.md": [/Ship it carefully\./],
  "packages/catalog-view/README.md": [/<name>deploy<\/name>/, /Run the deploy script/],
  "packages/prompts-loader/README.md": [/^Review src\/app\.ts with strict care\.$/m],
  "packages/core/README.md": [/Audit it\. Usage: \/a11y \[path\]/, /^true$/m],
  // a host's functions, defined and left for its loop to call: it must compile and load
  "packages/resources/README.md": [],
  "packages/registry/README.md": [/Ship it carefully\./],
  "packages/inventory/README.md": [/skill:pdf-forms\S* available/],
  "packages/audit/README.md": [/2\.1\.0/],
  // no policy file, no recipes, nothing to validate in the project: each must still run clean
  "packages/policy/README.md": [],
  // no agent has logged a session in the test's home
  "packages/session-logs/README.md": [/^0 invocations in 0 log files$/m],
  "packages/recipes-loader/README.md": [],
  "packages/validation/README.md": [],
  // last: they install into the project (a package of one skill, then two of a collection)
  "packages/lifecycle/README.md": [
    /^install skill:release-kit project/m,
    /^committed skill:release-kit/m,
    /Apply 2 changes\?/,
    /^true \[/m,
  ],
  "packages/publish/README.md": [/public\S* sha256:[0-9a-f]{64}|public\S* [0-9a-f]{64}/],
  "packages/sources/README.md": [/skillshelf-stage\S* [0-9a-f]{64}/],
  "packages/store/README.md": [/^user tool-kit loadable$/m],
  "packages/mcp/README.md": [/"serverInfo"/, /^\S+ untrusted$/m],
  "packages/collision/README.md": [
    /^deploy → \/home\/ada\/\.config\/skillshelf\/skills\/deploy\/SKILL\.md$/m,
    /lost by trusted/,
  ],
};

/** READMEs whose code this test cannot run yet, each with why (none now: a new one is run). */
const PENDING: readonly string[] = [];

/**
 * Blocks that serve MCP over stdio until stopped: each is run, asked to initialize as a client
 * would, and stopped once it has answered.
 */
const SERVERS: ReadonlySet<string> = new Set(["mcp-0"]);

const temp = mkdtempSync(join(tmpdir(), "skillshelf-readmes-"));
const project = join(temp, "project");
const home = join(temp, "home");
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** What a stdio MCP server at `file` answers an `initialize`; it is stopped once it has. */
function initialized(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const server = spawn(process.execPath, [file], {
      cwd: project,
      env: { PATH: process.env.PATH ?? "", HOME: home },
      stdio: ["pipe", "pipe", "inherit"],
    });
    let output = "";
    server.stdout.setEncoding("utf8");
    server.stdout.on("data", (chunk: string) => {
      output += chunk;
      if (!output.includes('"id":1')) return;
      server.kill();
      resolve(output);
    });
    server.on("error", reject);
    server.on("exit", (code) => {
      if (!output.includes('"id":1')) reject(new Error(`the server exited (${code}) unasked`));
    });
    const request = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "readme", version: "0" },
      },
    };
    server.stdin.write(`${JSON.stringify(request)}\n`);
  });
}

/** A module's file name for a README's block: `packages/core/README.md` → `core-0.mts`. */
function moduleName(readme: string, index: number): string {
  const name = readme === "README.md" ? "root" : (readme.split("/")[1] as string);
  return `${name}-${index}`;
}

describe("the READMEs' code (issue 57, item 3)", () => {
  beforeAll(() => {
    linkWorkspace(temp);
    // what the mcp README imports beside it: the SDK it serves with
    mkdirSync(join(temp, "node_modules", "@modelcontextprotocol"));
    symlinkSync(
      realpathSync(join(REPO, "packages", "mcp", "node_modules", "@modelcontextprotocol", "sdk")),
      join(temp, "node_modules", "@modelcontextprotocol", "sdk"),
    );
    // the project a reader's harness runs in: the corpus's skills in Claude Code's folder, one
    // skill and one template of its own in the project library
    cpSync(
      join(REPO, "packages", "test-utils", "corpus", "skills"),
      join(project, ".claude", "skills"),
      {
        recursive: true,
      },
    );
    mkdirSync(join(project, ".skillshelf", "skills", "deploy"), { recursive: true });
    writeFileSync(
      join(project, ".skillshelf", "skills", "deploy", "SKILL.md"),
      "---\nname: deploy\ndescription: Deploy the app to staging.\n---\nShip it carefully.\n",
    );
    mkdirSync(join(project, ".skillshelf", "skills", "pdf-forms"), { recursive: true });
    writeFileSync(
      join(project, ".skillshelf", "skills", "pdf-forms", "SKILL.md"),
      "---\nname: pdf-forms\ndescription: Fill PDF forms.\n---\nFill them.\n",
    );
    for (const [folder, name] of [
      ["vendor/release-kit", "release-kit"],
      ["vendor/collection/skills/lint", "lint"],
      ["vendor/collection/skills/format", "format"],
      ["vendor/collection/skills/test", "test"],
    ] as const) {
      mkdirSync(join(project, folder), { recursive: true });
      writeFileSync(
        join(project, folder, "SKILL.md"),
        `---\nname: ${name}\ndescription: The ${name} step of a release.\n---\nRun ${name}.\n`,
      );
    }
    // a package of our format, as staged, for the store's own writer
    mkdirSync(join(project, "vendor", "tool-kit", "skills", "tool-kit-lint"), { recursive: true });
    writeFileSync(
      join(project, "vendor", "tool-kit", "plugin.json"),
      JSON.stringify({
        name: "tool-kit",
        version: "1.0.0",
        description: "Tools for a release.",
        extensions: { skillshelf: { manifestVersion: 1, kind: "plugin" } },
      }),
    );
    writeFileSync(
      join(project, "vendor", "tool-kit", "skills", "tool-kit-lint", "SKILL.md"),
      "---\nname: tool-kit-lint\ndescription: Lint before a release.\n---\nRun the linter.\n",
    );
    // the team's index offers the release kit from its folder, pinned by its tree digest
    const digest = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { digestTree } from "@skillshelf/core"; console.log(digestTree(${JSON.stringify(join(project, "vendor", "release-kit"))}).digest);`,
      ],
      { cwd: temp, encoding: "utf8" },
    ).stdout.trim();
    mkdirSync(join(project, "team"));
    writeFileSync(
      join(project, "team", "library.yaml"),
      `- kind: skill\n  name: release-kit\n  description: The release steps.\n  sourceUrl: ../vendor/release-kit\n  version: 1.0.0\n  sha256: ${digest}\n`,
    );
    mkdirSync(join(project, ".skillshelf", "prompts"), { recursive: true });
    writeFileSync(
      join(project, ".skillshelf", "prompts", "review.md"),
      "---\ndescription: Review a file\n---\nReview $1 with $2 care.\n",
    );
    mkdirSync(join(project, ".git"));
    mkdirSync(home);
  });

  it("leave no README's code out unless it is listed as pending", () => {
    const readmes = [
      "README.md",
      ...readdirSync(join(REPO, "packages")).map((folder) => `packages/${folder}/README.md`),
    ].filter((readme) => existsSync(join(REPO, readme)) && tsBlocks(readme).length > 0);
    expect(readmes.filter((readme) => !(readme in RUN)).sort()).toEqual([...PENDING].sort());
  });

  it("name in their install line every package their code imports", () => {
    for (const readme of Object.keys(RUN)) {
      const text = readFileSync(join(REPO, readme), "utf8");
      // the first line that installs packages: what a reader types
      const install = /^npm install ([^\n#]*)/m.exec(text)?.[1] ?? "";
      const named = new Set(install.split(/\s+/).filter((word) => word.startsWith("@")));
      const imported = new Set(
        tsBlocks(readme).flatMap((block) =>
          [...block.matchAll(/from "((?:@[^/"]+\/)?[^/"]+)[^"]*"/g)].map(
            (match) => match[1] as string,
          ),
        ),
      );
      expect(
        [...imported].filter((name) => !named.has(name)),
        readme,
      ).toEqual([]);
    }
  });

  it("type-check strictly as written, every block of every README listed", () => {
    const files: string[] = [];
    for (const readme of Object.keys(RUN))
      tsBlocks(readme).forEach((block, index) => {
        const file = `${moduleName(readme, index)}.mts`;
        writeFileSync(join(temp, file), `${block}\nexport {};\n`);
        files.push(file);
      });
    expect(files.length).toBeGreaterThanOrEqual(Object.keys(RUN).length);
    const compiled = compileStrictly(temp, files, { outDir: "out" });
    expect(compiled.stdout).toBe("");
    expect(compiled.status).toBe(0);
  }, 300_000);

  for (const [readme, expected] of Object.entries(RUN))
    it(`runs ${readme} in a project of real skills and prints what it says`, async () => {
      // its blocks in order, as a reader runs them; what they print, together
      const printed: string[] = [];
      for (const [index] of tsBlocks(readme).entries()) {
        const name = moduleName(readme, index);
        if (SERVERS.has(name)) {
          printed.push(await initialized(join(temp, "out", `${name}.mjs`)));
          continue;
        }
        const ran = spawnSync(process.execPath, [join(temp, "out", `${name}.mjs`)], {
          cwd: project,
          encoding: "utf8",
          env: { PATH: process.env.PATH ?? "", HOME: home },
        });
        expect(ran.status, ran.stderr).toBe(0);
        printed.push(ran.stdout);
      }
      for (const pattern of expected) expect(printed.join("")).toMatch(pattern);
    }, 120_000);
});
