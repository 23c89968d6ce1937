import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { parseFrontmatter } from "@skillshelf/core";
import { skillFile, testdir, writeTree } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  httpServer,
  httpSkills,
  INITIALIZE,
  initializeStatus,
  withStdioSkills,
} from "../test/_mcp.js";
import { BIN } from "../test/_run.js";
import { changeSandbox } from "../test/_sandbox.js";

const sha = (bytes: Buffer | string) =>
  `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/** A library with two served skills, one for the operator only, one in another agent's folder, and a template. */
function library() {
  const box = changeSandbox();
  const skills = join(box.configDir, "skills");
  writeTree(skills, {
    "alpha/SKILL.md": skillFile("alpha", "First skill.", "license: MIT\nmetadata:\n  team: core\n"),
    "alpha/references/guide.md": "# Guide\n\nÜnïcode stays as written.\n",
    "alpha/scripts/run.sh": "#!/bin/sh\necho run\n",
    "beta/SKILL.md": skillFile("beta", "Second skill."),
    "gamma/SKILL.md": skillFile("gamma", "For the operator.", "disable-model-invocation: true\n"),
  });
  // bytes that are not UTF-8 travel as a blob, unchanged
  mkdirSync(join(skills, "alpha", "assets"));
  writeFileSync(join(skills, "alpha", "assets", "logo.bin"), Buffer.from([0xff, 0xfe, 0x00, 0x80]));
  writeTree(box.cwd, {
    ".claude/skills/hidden/SKILL.md": skillFile("hidden", "In another agent's folder."),
  });
  writeTree(join(box.configDir, "prompts"), {
    "review.md": "---\ndescription: Review a file\n---\nReview $1 with care. Notes: $ARGUMENTS\n",
    "card.md": "---\ndescription: A card\ndisplay-only: true\n---\n```\ncard\n```\n",
  });
  return { box, skills };
}

/** How a call is refused: its JSON-RPC code and Skillshelf's, as `-32602 mcp_uri_unknown`. */
async function refusedAs(call: Promise<unknown>): Promise<string> {
  const error = await refusal(call);
  return `${error.code} ${error.data?.code}`;
}

/** The MCP error a call is refused with: its JSON-RPC code and Skillshelf's code. */
async function refusal(
  call: Promise<unknown>,
): Promise<{ code: number; data?: { code?: string } }> {
  try {
    await call;
  } catch (error) {
    return error as { code: number; data?: { code?: string } };
  }
  throw new Error("the call was not refused");
}

describe("skillshelf mcp serves the library (issue 29, item 1)", () => {
  it("lists the trusted, model-visible skills with verbatim frontmatter and digests of the exact bytes", async () => {
    const { box, skills } = library();
    await withStdioSkills([], box, async (mcp) => {
      expect(mcp.client.getServerCapabilities()?.extensions).toEqual({
        "io.modelcontextprotocol/skills": { directoryRead: true },
      });
      const { skills: listed } = await mcp.listAll();
      expect(listed.map((entry) => entry.uri)).toEqual([
        "skill://alpha/SKILL.md",
        "skill://beta/SKILL.md",
      ]);
      const alpha = listed[0];
      const written = parseFrontmatter(readFileSync(join(skills, "alpha", "SKILL.md"), "utf8"));
      expect(written.ok && alpha?.frontmatter).toEqual(written.ok ? written.data : undefined);
      expect(alpha?.resources.map((file) => file.uri)).toEqual([
        "skill://alpha/SKILL.md",
        "skill://alpha/assets/logo.bin",
        "skill://alpha/references/guide.md",
        "skill://alpha/scripts/run.sh",
      ]);
      for (const entry of listed)
        for (const file of entry.resources) {
          const onDisk = readFileSync(join(skills, file.uri.slice("skill://".length)));
          const served = await mcp.bytes(file.uri);
          expect(served.equals(onDisk)).toBe(true);
          expect(file.digest).toBe(sha(onDisk));
        }
      expect(await mcp.get("skill://alpha/SKILL.md")).toEqual(alpha);
      expect(await mcp.children("skill://alpha")).toEqual([
        { uri: "skill://alpha/SKILL.md", name: "SKILL.md", mimeType: "text/markdown" },
        { uri: "skill://alpha/assets", name: "assets", mimeType: "inode/directory" },
        { uri: "skill://alpha/references", name: "references", mimeType: "inode/directory" },
        { uri: "skill://alpha/scripts", name: "scripts", mimeType: "inode/directory" },
      ]);
      expect((await mcp.children("skill://alpha/references")).map((one) => one.uri)).toEqual([
        "skill://alpha/references/guide.md",
      ]);
    });
  });

  it("serves SEP-2640's stable shape: sizes, cacheable complete results, no templates, the per-skill limits (issue 58, item 1)", async () => {
    const { box, skills } = library();
    // one skill past the limit of 512 files: not served, and skills/get says why
    writeTree(join(skills, "huge"), {
      "SKILL.md": skillFile("huge", "Too many files."),
      ...Object.fromEntries(
        Array.from({ length: 512 }, (_, index) => [`parts/${index}.md`, `${index}\n`]),
      ),
    });
    await withStdioSkills([], box, async (mcp) => {
      const page = (await mcp.client.request(
        { method: "skills/list", params: {} },
        z.looseObject({ skills: z.array(z.any()) }),
      )) as Record<string, unknown> & { skills: { uri: string; resources: unknown }[] };
      expect(page).toMatchObject({ resultType: "complete", ttlMs: 60_000, cacheScope: "private" });
      expect(page.skills.map((entry) => entry.uri)).toEqual([
        "skill://alpha/SKILL.md",
        "skill://beta/SKILL.md",
      ]);
      for (const entry of page.skills) {
        expect(Object.keys(entry).sort()).toEqual(["frontmatter", "resources", "uri"]);
        for (const file of entry.resources as { uri: string; digest: string; size: number }[]) {
          expect(Object.keys(file).sort()).toEqual(["digest", "size", "uri"]);
          expect(file.size).toBe((await mcp.bytes(file.uri)).byteLength);
        }
      }
      const got = await mcp.client.request(
        { method: "skills/get", params: { uri: "skill://beta/SKILL.md" } },
        z.looseObject({ skill: z.any() }),
      );
      expect(got).toMatchObject({ resultType: "complete", ttlMs: 60_000, cacheScope: "private" });
      expect(await mcp.client.listResourceTemplates()).toMatchObject({ resourceTemplates: [] });
      const over = await refusal(mcp.get("skill://huge/SKILL.md"));
      expect(over).toMatchObject({
        code: -32602,
        data: { code: "mcp_skill_over_limit", files: 513 },
      });
    });
  });

  it("never lists or reads an untrusted or operator-only skill, a traversal, or anything unlisted", async () => {
    const { box } = library();
    await withStdioSkills([], box, async (mcp) => {
      for (const uri of [
        "skill://hidden/SKILL.md",
        "skill://gamma/SKILL.md",
        "skill://alpha/nope.md",
      ])
        expect(await refusedAs(mcp.bytes(uri))).toBe("-32602 mcp_uri_unknown");
      expect(await refusedAs(mcp.get("skill://hidden/SKILL.md"))).toBe("-32602 mcp_uri_unknown");
      for (const uri of [
        "skill://x/../../etc/passwd",
        "skill://alpha/../../../etc/passwd",
        "skill://alpha/%2e%2e/%2e%2e/etc/passwd",
        "skill://alpha/references%2f..%2f..%2fSKILL.md",
        "file:///etc/passwd",
      ])
        expect(await refusedAs(mcp.bytes(uri))).toBe("-32602 mcp_uri_invalid");
      expect(await refusedAs(mcp.children("skill://alpha/SKILL.md"))).toBe(
        "-32602 mcp_uri_unknown",
      );
      expect(
        await refusedAs(mcp.client.subscribeResource({ uri: "skill://hidden/SKILL.md" })),
      ).toBe("-32602 mcp_uri_unknown");
    });
  });

  it("serves trusted templates as prompts, their arguments from their placeholders, expanded by the loader", async () => {
    const { box } = library();
    await withStdioSkills([], box, async (mcp) => {
      const { prompts } = await mcp.client.listPrompts();
      // the display-only card sends nothing to a model, so it is not a prompt
      expect(prompts).toEqual([
        {
          name: "review",
          description: "Review a file",
          arguments: [
            { name: "arg1", description: "argument 1 ($1)", required: false },
            {
              name: "arguments",
              description: "the arguments as one text ($ARGUMENTS)",
              required: false,
            },
          ],
        },
      ]);
      const expanded = await mcp.client.getPrompt({
        name: "review",
        arguments: { arguments: "src/app.ts twice" },
      });
      expect(expanded.messages).toEqual([
        {
          role: "user",
          content: { type: "text", text: "Review src/app.ts with care. Notes: src/app.ts twice\n" },
        },
      ]);
      expect(await refusedAs(mcp.client.getPrompt({ name: "card" }))).toBe(
        "-32602 mcp_prompt_refused",
      );
    });
  });

  it("sees a change on the next list, tells clients the list changed and a subscribed file was updated", async () => {
    const { box, skills } = library();
    await withStdioSkills(["--poll-ms", "50"], box, async (mcp) => {
      const before = await mcp.get("skill://alpha/SKILL.md");
      const guide = "skill://alpha/references/guide.md";
      await mcp.client.subscribeResource({ uri: guide });
      const told = new Promise<string[]>((resolve) => {
        const seen: string[] = [];
        const note = (what: string) => {
          seen.push(what);
          if (seen.length === 2) resolve(seen.sort());
        };
        mcp.client.setNotificationHandler(ResourceListChangedNotificationSchema, () =>
          note("list"),
        );
        mcp.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
          note(notification.params.uri),
        );
      });
      appendFileSync(join(skills, "alpha", "references", "guide.md"), "One more line.\n");
      const after = await mcp.get("skill://alpha/SKILL.md");
      const digestOf = (entry: typeof before) =>
        entry.resources.find((file) => file.uri === guide)?.digest;
      expect(digestOf(after)).not.toBe(digestOf(before));
      expect(digestOf(after)).toBe(
        sha(readFileSync(join(skills, "alpha", "references", "guide.md"))),
      );
      expect(await told).toEqual([guide, "list"].sort());
      // SKILL.md edited in place, in a folder the server's watch knew quiet: seen at once
      const skillFile = join(skills, "alpha", "SKILL.md");
      appendFileSync(skillFile, "\nOne more step.\n");
      const edited = await mcp.get("skill://alpha/SKILL.md");
      expect(edited.resources.find((file) => file.uri === "skill://alpha/SKILL.md")?.digest).toBe(
        sha(readFileSync(skillFile)),
      );
    });
  });

  it("answers bad input with coded errors and keeps serving", async () => {
    const { box } = library();
    await withStdioSkills(["--page-size", "1"], box, async (mcp) => {
      for (const cursor of [
        "not a cursor!",
        "x".repeat(100_000),
        Buffer.from("[1]").toString("base64url"),
      ])
        expect(await refusedAs(mcp.list(cursor))).toBe("-32602 mcp_cursor_invalid");
      expect(
        await refusal(mcp.client.request({ method: "skills/forge", params: {} }, z.any())),
      ).toMatchObject({ code: -32601 });
      expect(
        await refusal(mcp.client.request({ method: "skills/get", params: {} }, z.any())),
      ).toMatchObject({ code: -32602, data: { code: "mcp_uri_invalid" } });
      expect((await mcp.listAll()).skills).toHaveLength(2);
    });
  });

  it("answers lines that are not JSON or not JSON-RPC with coded errors, and goes on serving", async () => {
    const { box } = library();
    const child = spawn(process.execPath, [BIN, "mcp", "--poll-ms", "0"], {
      cwd: box.cwd,
      env: { PATH: process.env.PATH ?? "", ...box.env },
      stdio: ["pipe", "pipe", "ignore"],
    });
    const replies: { id?: unknown; error?: { code: number }; result?: { skills?: unknown[] } }[] =
      [];
    const listed = new Promise<void>((resolve) => {
      createInterface({ input: child.stdout }).on("line", (line) => {
        replies.push(JSON.parse(line));
        if (replies.some((reply) => reply.id === 2)) resolve();
      });
    });
    child.stdin.write(
      [
        "this is not json",
        JSON.stringify(INITIALIZE),
        JSON.stringify({ no: "rpc" }),
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
        JSON.stringify({ jsonrpc: "2.0", id: 2, method: "skills/list", params: {} }),
        "",
      ].join("\n"),
    );
    await listed;
    child.stdin.end();
    expect(replies.filter((reply) => reply.id === null).map((reply) => reply.error?.code)).toEqual([
      -32700, -32600,
    ]);
    expect(replies.find((reply) => reply.id === 2)?.result?.skills).toHaveLength(2);
  });

  it("pages 1,000 skills in small pages, each once, in order", async () => {
    const box = changeSandbox();
    const tree: Record<string, string> = {};
    for (let index = 0; index < 1000; index += 1) {
      const name = `skill-${String(index).padStart(4, "0")}`;
      tree[`${name}/SKILL.md`] = skillFile(name, `Skill number ${index}.`);
    }
    writeTree(join(box.configDir, "skills"), tree);
    await withStdioSkills(["--page-size", "7"], box, async (mcp) => {
      const { skills, pages } = await mcp.listAll();
      expect(pages).toBe(Math.ceil(1000 / 7));
      const uris = skills.map((entry) => entry.uri);
      expect(new Set(uris).size).toBe(1000);
      expect(uris).toEqual([...uris].sort());
    });
  }, 60_000);
});

describe("list and explain say what an MCP client gets (issue 29, item 3)", () => {
  it("name exactly the skills the server lists, and why each other one is not served", async () => {
    const { box, skills } = library();
    // past SEP-2640's limit of 512 files: explain walks it and says so; list does not walk folders
    writeTree(join(skills, "huge"), {
      "SKILL.md": skillFile("huge", "Too many files."),
      ...Object.fromEntries(Array.from({ length: 512 }, (_, index) => [`parts/${index}.md`, "x"])),
    });
    // an installed package, then disabled: its skill leaves every listing, the server's too
    const packaged = testdir({ "SKILL.md": skillFile("delta", "Packaged skill.") });
    expect((await box.run("install", packaged, "--user", "--yes")).status).toBe(0);
    expect((await box.run("disable", "delta", "--user", "--yes")).status).toBe(0);
    const explained = JSON.parse((await box.run("explain", "--json")).stdout) as {
      mcp: { served: string[]; withheld: { name: string; reason: string }[] };
    };
    const listed = JSON.parse((await box.run("list", "--json")).stdout) as {
      skills: { name: string; mcp: string }[];
    };
    await withStdioSkills([], box, async (mcp) => {
      const uris = (await mcp.listAll()).skills.map((entry) => entry.uri);
      expect(explained.mcp.served.map((name) => `skill://${name}/SKILL.md`)).toEqual(uris);
      expect(
        listed.skills
          .filter((one) => one.mcp === "served" && one.name !== "huge")
          .map((one) => `skill://${one.name}/SKILL.md`),
      ).toEqual(uris);
      expect(explained.mcp.withheld).toEqual([
        expect.objectContaining({ name: "gamma", reason: "operator-only" }),
        expect.objectContaining({ name: "hidden", reason: "untrusted" }),
        expect.objectContaining({ name: "huge", reason: "over-limit" }),
      ]);
      expect(await refusedAs(mcp.bytes("skill://delta/SKILL.md"))).toBe("-32602 mcp_uri_unknown");
      expect((await box.run("enable", "delta", "--user", "--yes")).status).toBe(0);
      expect((await mcp.listAll()).skills.map((entry) => entry.uri)).toContain(
        "skill://delta/SKILL.md",
      );
    });
  });
});

describe("skillshelf mcp --http (issue 29, item 1)", () => {
  it("serves the same over Streamable HTTP, refuses malformed messages and outlives a client that leaves", async () => {
    const { box, skills } = library();
    const server = await httpServer([], box);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const first = await httpSkills(server.url);
      const { skills: listed } = await first.listAll();
      expect(listed.map((entry) => entry.uri)).toEqual([
        "skill://alpha/SKILL.md",
        "skill://beta/SKILL.md",
      ]);
      const guide = readFileSync(join(skills, "alpha", "references", "guide.md"));
      expect((await first.bytes("skill://alpha/references/guide.md")).equals(guide)).toBe(true);
      // a client that goes away in the middle of a read
      const pending = first.bytes("skill://alpha/assets/logo.bin").catch(() => undefined);
      await first.close();
      await pending;
      const post = (body: string, headers: Record<string, string> = {}) =>
        fetch(server.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...headers,
          },
          body,
        });
      const malformed = await post("{ not json");
      expect(malformed.status).toBe(400);
      expect(((await malformed.json()) as { error: { code: number } }).error.code).toBe(-32700);
      const sessionless = await post(
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "skills/list" }),
      );
      expect(sessionless.status).toBe(400);
      // a page of another site pointing a name at 127.0.0.1 (DNS rebinding) is turned away
      expect(await initializeStatus(server.url, { host: "evil.example" })).toBe(403);
      const second = await httpSkills(server.url);
      expect((await second.listAll()).skills).toHaveLength(2);
      expect((await second.client.listPrompts()).prompts.map((one) => one.name)).toEqual([
        "review",
      ]);
      await second.close();
    } finally {
      await server.stop();
    }
  });
});
