import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { skillFile, testdir, writeTree } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { httpServer } from "../test/_mcp.js";
import { BIN } from "../test/_run.js";
import { changeSandbox, codesOf } from "../test/_sandbox.js";

/** A project whose library `skillshelf mcp --cwd` serves. */
function servedProject(): string {
  const project = testdir({});
  writeTree(join(project, ".skillshelf", "skills"), {
    "alpha/SKILL.md": skillFile("alpha", "First skill."),
    "alpha/references/guide.md": "# Guide\n",
    "beta/SKILL.md": skillFile("beta", "Second skill."),
  });
  return project;
}

/** The source text of `skillshelf mcp` serving `project` over stdio. */
const stdioSource = (project: string) =>
  `mcp+stdio:${process.execPath} ${BIN} mcp --cwd ${project}`;

const require = createRequire(import.meta.url);

/**
 * A server written with the SDK that serves one skill and lies: `digest` is what its listing
 * claims of the file, `name` and `description` what it shows of the frontmatter.
 */
function liar(options: {
  readonly digest?: string;
  readonly name?: string;
  readonly description?: string;
}): string {
  const dir = testdir({});
  const script = join(dir, "liar.cjs");
  const text = skillFile("alpha", "First skill.");
  writeFileSync(
    script,
    `const { Server } = require(${JSON.stringify(require.resolve("@modelcontextprotocol/sdk/server/index.js"))});
const { StdioServerTransport } = require(${JSON.stringify(require.resolve("@modelcontextprotocol/sdk/server/stdio.js"))});
const types = require(${JSON.stringify(require.resolve("@modelcontextprotocol/sdk/types.js"))});
const { z } = require(${JSON.stringify(require.resolve("zod"))});
const { createHash } = require("node:crypto");
const text = ${JSON.stringify(text)};
const digest = ${JSON.stringify(options.digest ?? "")} || "sha256:" + createHash("sha256").update(text).digest("hex");
const entry = {
  uri: "skill://alpha/SKILL.md",
  frontmatter: { name: ${JSON.stringify(options.name ?? "alpha")}, description: ${JSON.stringify(options.description ?? "First skill.")} },
  resources: [{ uri: "skill://alpha/SKILL.md", digest }],
};
const server = new Server({ name: "liar", version: "1" }, {
  capabilities: { resources: {}, extensions: { "io.modelcontextprotocol/skills": {} } },
});
server.setRequestHandler(z.object({ method: z.literal("skills/list"), params: z.optional(z.any()) }), () => ({ skills: [entry] }));
server.setRequestHandler(z.object({ method: z.literal("skills/get"), params: z.any() }), () => ({ skill: entry }));
server.setRequestHandler(types.ReadResourceRequestSchema, (request) => ({
  contents: [{ uri: request.params.uri, mimeType: "text/markdown", text }],
}));
server.connect(new StdioServerTransport());
`,
  );
  return `mcp+stdio:${process.execPath} ${script}`;
}

describe("an MCP skills server as a source (issue 29, item 2)", () => {
  it("installs chosen skills over stdio, records server, skill and digests, and update --check asks the listing", async () => {
    const box = changeSandbox();
    const project = servedProject();
    const install = await box.runAsync(
      "install",
      stdioSource(project),
      "--skill",
      "*",
      "--user",
      "--yes",
      "--json",
    );
    expect(install.status).toBe(0);
    const lock = box.userLock() as Record<string, { source: unknown; commit?: string }>;
    expect(Object.keys(lock).sort()).toEqual(["alpha", "beta"]);
    expect(lock.alpha?.source).toEqual({
      type: "mcp",
      url: `stdio:${process.execPath} ${BIN} mcp --cwd ${project}`,
      path: "alpha",
    });
    expect(lock.alpha?.commit).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await box.skills()).sort()).toEqual(["alpha", "beta"]);

    const check = async () =>
      JSON.parse((await box.runAsync("update", "--check", "--user", "--json")).stdout) as {
        checks: { id: string; status: string }[];
      };
    expect((await check()).checks.map((one) => [one.id, one.status]).sort()).toEqual([
      ["alpha", "up-to-date"],
      ["beta", "up-to-date"],
    ]);
    appendFileSync(
      join(project, ".skillshelf", "skills", "alpha", "references", "guide.md"),
      "More.\n",
    );
    expect((await check()).checks.map((one) => [one.id, one.status]).sort()).toEqual([
      ["alpha", "out-of-date"],
      ["beta", "up-to-date"],
    ]);
    const update = await box.runAsync("update", "alpha", "--user", "--yes", "--json");
    expect(update.status).toBe(0);
    expect((box.userLock() as Record<string, { commit?: string }>).alpha?.commit).not.toBe(
      lock.alpha?.commit,
    );
  }, 120_000);

  it("starts a server command a project lock names only when told to: a clone cannot run commands", async () => {
    const box = changeSandbox();
    const project = servedProject();
    const typed = await box.runAsync(
      "install",
      stdioSource(project),
      "--skill",
      "alpha",
      "--project",
      "--yes",
      "--json",
    );
    expect(typed.status).toBe(0);
    // a fresh clone: the lock is there, nothing is installed, and the user never typed the command
    rmSync(join(box.cwd, ".skillshelf", "packages"), { recursive: true, force: true });
    const restore = await box.runAsync("install", "--project", "--yes", "--json");
    expect(restore.status).toBe(1);
    expect(codesOf(restore)).toContain("mcp_command_refused");
    const allowed = await box.runAsync(
      "install",
      "--project",
      "--yes",
      "--json",
      "--allow-mcp-command",
    );
    expect(allowed.status).toBe(0);
    expect(await box.skills()).toContain("alpha");
  }, 120_000);

  it("installs one skill named by path from a server over Streamable HTTP", async () => {
    const box = changeSandbox();
    const project = servedProject();
    const server = await httpServer(["--cwd", project], { cwd: project, env: box.env });
    try {
      const install = await box.runAsync(
        "install",
        `mcp+${server.url}//beta`,
        "--user",
        "--yes",
        "--json",
      );
      expect(install.status).toBe(0);
      expect(Object.keys(box.userLock())).toEqual(["beta"]);
      expect(box.userLock().beta?.source).toEqual({ type: "mcp", url: server.url, path: "beta" });
    } finally {
      await server.stop();
    }
  }, 120_000);

  it("refuses a server whose file does not match its listed digest, or whose frontmatter is not the listed one", async () => {
    const box = changeSandbox();
    const refusedWith = async (source: string) => {
      const run = await box.runAsync(
        "install",
        source,
        "--skill",
        "*",
        "--user",
        "--yes",
        "--json",
      );
      expect(run.status).toBe(1);
      return codesOf(run);
    };
    expect(await refusedWith(liar({ digest: `sha256:${"0".repeat(64)}` }))).toContain(
      "digest_mismatch",
    );
    expect(await refusedWith(liar({ name: "beta" }))).toContain("mcp_skill_invalid");
    expect(await refusedWith(liar({ description: "Something else entirely." }))).toContain(
      "mcp_skill_invalid",
    );
    expect(await refusedWith(`mcp+stdio:${process.execPath} -e "process.exit(3)"`)).toContain(
      "mcp_server_failed",
    );
    expect(box.userLock()).toEqual({});
  }, 120_000);
});
