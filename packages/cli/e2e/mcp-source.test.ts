import { appendFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { skillFile, testdir, writeTree } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { httpServer } from "../test/_mcp.js";
import { dynamicSkill, sdkServer, skillServed } from "../test/_mcp-servers.js";
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
    const daily = dynamicSkill(
      "skill://reports/daily/SKILL.md",
      "daily",
      "Today's report, made when asked.",
    );
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
