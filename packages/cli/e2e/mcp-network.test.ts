import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { skillFile, testdir, writeTree } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { httpServer, httpSkills, initializeStatus } from "../test/_mcp.js";
import { runCliAsync } from "../test/_run.js";
import { changeSandbox } from "../test/_sandbox.js";

// Issue 51, item 4: `mcp --http` on an address other than loopback serves nothing without a
// token, and answers only requests naming this machine (or a host it is told to answer to).

function servedProject(): string {
  const project = testdir({});
  writeTree(join(project, ".skillshelf", "skills"), {
    "alpha/SKILL.md": skillFile("alpha", "First skill."),
  });
  return project;
}

describe("skills over MCP on a network address", () => {
  it("makes a token, shows it once, and answers no request without it", async () => {
    const box = changeSandbox();
    const project = servedProject();
    const server = await httpServer(["--host", "0.0.0.0", "--cwd", project], {
      cwd: project,
      env: box.env,
    });
    try {
      const url = server.url.replace("0.0.0.0", "127.0.0.1");
      await expect.poll(() => server.stderr()).toMatch(/Bearer (\S+)"/);
      const token = /Bearer (\S+)"/.exec(server.stderr())?.[1] ?? "";
      expect(token.length).toBeGreaterThanOrEqual(32);
      expect(server.stderr().split(token)).toHaveLength(2);
      expect(await initializeStatus(url, {})).toBe(401);
      expect(await initializeStatus(url, { authorization: "Bearer not-the-token" })).toBe(401);
      const mcp = await httpSkills(url, { authorization: `Bearer ${token}` });
      try {
        expect((await mcp.listAll()).skills.map((skill) => skill.frontmatter.name)).toEqual([
          "alpha",
        ]);
      } finally {
        await mcp.close();
      }
      // a page elsewhere cannot reach it by another name (DNS rebinding), token or not
      const authorized = { authorization: `Bearer ${token}` };
      expect(await initializeStatus(url, { ...authorized, origin: "http://evil.example" })).toBe(
        403,
      );
    } finally {
      await server.stop();
    }
  });

  it("takes the token from --token-file, and refuses to start with one too short", async () => {
    const box = changeSandbox();
    const project = servedProject();
    const file = join(testdir(), "token");
    writeFileSync(file, "short\n");
    const refused = await runCliAsync(
      ["mcp", "--http", "0", "--host", "0.0.0.0", "--token-file", file],
      {
        cwd: project,
        env: box.env,
      },
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("mcp_token_invalid");
    writeFileSync(file, "a-token-long-enough-to-keep\n");
    const server = await httpServer(["--host", "0.0.0.0", "--token-file", file, "--cwd", project], {
      cwd: project,
      env: box.env,
    });
    try {
      const url = server.url.replace("0.0.0.0", "127.0.0.1");
      expect(await initializeStatus(url, {})).toBe(401);
      expect(
        await initializeStatus(url, { authorization: "Bearer a-token-long-enough-to-keep" }),
      ).toBe(200);
      expect(server.stderr()).not.toContain("a-token-long-enough-to-keep");
    } finally {
      await server.stop();
    }
  });

  it("on loopback answers only requests naming this machine or an allowed host", async () => {
    const box = changeSandbox();
    const project = servedProject();
    const server = await httpServer(["--allow-host", "skills.test", "--cwd", project], {
      cwd: project,
      env: box.env,
    });
    try {
      const port = new URL(server.url).port;
      expect(await initializeStatus(server.url, {})).toBe(200);
      expect(await initializeStatus(server.url, { host: `rebound.example:${port}` })).toBe(403);
      expect(await initializeStatus(server.url, { host: `skills.test:${port}` })).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
