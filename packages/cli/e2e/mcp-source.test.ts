import { createHash } from "node:crypto";
import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

/** One skill entry as a server written in a test serves it, and the text of each of its files. */
interface Served {
  readonly entry: Record<string, unknown>;
  readonly files: Readonly<Record<string, string>>;
}

/** `text`'s digest as SEP-2640 writes it, and its length in bytes. */
const described = (uri: string, text: string) => ({
  uri,
  digest: `sha256:${createHash("sha256").update(text).digest("hex")}`,
  size: Buffer.byteLength(text),
});

/** A skill at `uri` (`<scheme>://<path>/SKILL.md`) with `files` (by path inside it), entry as written. */
function skillServed(
  uri: string,
  files: Readonly<Record<string, string>>,
  frontmatter: Record<string, unknown>,
): Served {
  const root = uri.slice(0, -"/SKILL.md".length);
  const byUri = Object.fromEntries(
    Object.entries(files).map(([path, text]) => [`${root}/${path}`, text]),
  );
  return {
    entry: {
      uri,
      frontmatter,
      resources: Object.entries(byUri).map(([fileUri, text]) => described(fileUri, text)),
    },
    files: byUri,
  };
}

/**
 * A server written with the SDK, started over stdio, that lists `listed`, answers `skills/get`
 * for those and `unlisted`, and serves their files; each URI it is asked to read is appended to
 * its log. Its source text, and what it was asked to read.
 */
function sdkServer(
  listed: readonly Served[],
  unlisted: readonly Served[] = [],
): { readonly source: string; readonly reads: () => string[] } {
  const dir = testdir({});
  const script = join(dir, "server.cjs");
  const log = join(dir, "reads.log");
  writeFileSync(log, "");
  writeFileSync(
    join(dir, "served.json"),
    JSON.stringify({
      listed: listed.map((one) => one.entry),
      all: [...listed, ...unlisted].map((one) => one.entry),
      files: Object.assign({}, ...[...listed, ...unlisted].map((one) => one.files)),
    }),
  );
  writeFileSync(
    script,
    `const { Server } = require(${JSON.stringify(require.resolve("@modelcontextprotocol/sdk/server/index.js"))});
const { StdioServerTransport } = require(${JSON.stringify(require.resolve("@modelcontextprotocol/sdk/server/stdio.js"))});
const types = require(${JSON.stringify(require.resolve("@modelcontextprotocol/sdk/types.js"))});
const { z } = require(${JSON.stringify(require.resolve("zod"))});
const { appendFileSync, readFileSync } = require("node:fs");
const served = JSON.parse(readFileSync(${JSON.stringify(join(dir, "served.json"))}, "utf8"));
const server = new Server({ name: "test", version: "1" }, {
  capabilities: { resources: {}, extensions: { "io.modelcontextprotocol/skills": {} } },
});
server.setRequestHandler(z.object({ method: z.literal("skills/list"), params: z.optional(z.any()) }), () => ({ resultType: "complete", skills: served.listed, ttlMs: 0, cacheScope: "private" }));
server.setRequestHandler(z.object({ method: z.literal("skills/get"), params: z.any() }), (request) => {
  const skill = served.all.find((one) => one.uri === request.params.uri);
  if (skill === undefined) throw new types.McpError(-32602, "no such skill");
  return { resultType: "complete", skill, ttlMs: 0, cacheScope: "private" };
});
server.setRequestHandler(types.ReadResourceRequestSchema, (request) => {
  appendFileSync(${JSON.stringify(log)}, request.params.uri + "\\n");
  return { contents: [{ uri: request.params.uri, mimeType: "text/markdown", text: served.files[request.params.uri] }] };
});
server.connect(new StdioServerTransport());
`,
  );
  return {
    source: `mcp+stdio:${process.execPath} ${script}`,
    reads: () => readFileSync(log, "utf8").split("\n").filter(Boolean),
  };
}

/**
 * A server that serves one skill and lies: `digest` is what its listing claims of the file,
 * `name` and `description` what it shows of the frontmatter.
 */
function liar(options: {
  readonly digest?: string;
  readonly name?: string;
  readonly description?: string;
}): string {
  const alpha = skillServed(
    "skill://alpha/SKILL.md",
    { "SKILL.md": skillFile("alpha", "First skill.") },
    { name: options.name ?? "alpha", description: options.description ?? "First skill." },
  );
  const [resource] = alpha.entry.resources as { uri: string; digest: string; size: number }[];
  const entry = {
    ...alpha.entry,
    resources: [
      { ...resource, ...(options.digest === undefined ? {} : { digest: options.digest }) },
    ],
  };
  return sdkServer([{ ...alpha, entry }]).source;
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

  it("judges each entry alone: the static skills install, a dynamic and an oversized one are declined with their codes, unread (issue 58, item 2)", async () => {
    const box = changeSandbox();
    const alpha = skillServed(
      "skill://alpha/SKILL.md",
      { "SKILL.md": skillFile("alpha", "First skill.") },
      { name: "alpha", description: "First skill." },
    );
    const daily = {
      entry: {
        uri: "skill://reports/daily/SKILL.md",
        frontmatter: { name: "daily", description: "Today's report, made when asked." },
        resources: "dynamic",
      },
      files: {},
    };
    const huge = skillServed(
      "skill://huge/SKILL.md",
      {
        "SKILL.md": skillFile("huge", "Too many files."),
        ...Object.fromEntries(
          Array.from({ length: 512 }, (_, index) => [`parts/${index}.md`, "x"]),
        ),
      },
      { name: "huge", description: "Too many files." },
    );
    const server = sdkServer([alpha, daily, huge]);
    const all = await box.runAsync(
      "install",
      server.source,
      "--skill",
      "*",
      "--user",
      "--yes",
      "--json",
    );
    expect(all.status, all.stderr).toBe(0);
    expect(Object.keys(box.userLock())).toEqual(["alpha"]);
    expect(codesOf(all)).toEqual(
      expect.arrayContaining(["mcp_skill_dynamic", "mcp_skill_over_limit"]),
    );
    // nothing of a declined skill was read: the limits are checked from its entry alone
    expect(server.reads()).toEqual(["skill://alpha/SKILL.md"]);
    const one = await box.runAsync(
      "install",
      `${server.source}#path=reports/daily`,
      "--user",
      "--yes",
      "--json",
    );
    expect(one.status).toBe(1);
    expect(codesOf(one)).toContain("mcp_skill_dynamic");
  }, 120_000);

  it("refuses a file whose length is not its listed size, and asks skills/get in the listing's own scheme (issue 58, item 2)", async () => {
    const box = changeSandbox();
    const alpha = skillServed(
      "skill://alpha/SKILL.md",
      { "SKILL.md": skillFile("alpha", "First skill.") },
      { name: "alpha", description: "First skill." },
    );
    const [resource] = alpha.entry.resources as { uri: string; digest: string; size: number }[];
    const lying = sdkServer([
      {
        ...alpha,
        entry: { ...alpha.entry, resources: [{ ...resource, size: (resource?.size ?? 0) + 1 }] },
      },
    ]);
    const refused = await box.runAsync(
      "install",
      lying.source,
      "--skill",
      "*",
      "--user",
      "--yes",
      "--json",
    );
    expect(refused.status).toBe(1);
    expect(codesOf(refused)).toContain("mcp_size_mismatch");
    expect(box.userLock()).toEqual({});
    // a partial listing under a scheme of the server's own: the unlisted skill is asked for in it
    const tools = (name: string) =>
      skillServed(
        `acme://tools/${name}/SKILL.md`,
        { "SKILL.md": skillFile(name, `The ${name} tool.`) },
        { name, description: `The ${name} tool.` },
      );
    const partial = sdkServer([tools("alpha")], [tools("beta")]);
    const beta = await box.runAsync(
      "install",
      `${partial.source}#path=tools/beta`,
      "--user",
      "--yes",
      "--json",
    );
    expect(beta.status, beta.stderr).toBe(0);
    expect(Object.keys(box.userLock())).toEqual(["beta"]);
  }, 120_000);
});
