import { type ChildProcess, spawn } from "node:child_process";
import { request } from "node:http";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";
import { BIN } from "./_run.js";

/** A skill entry as a test reads it back. */
interface Entry {
  readonly uri: string;
  readonly frontmatter: Record<string, unknown>;
  readonly resources: { readonly uri: string; readonly digest: string; readonly size: number }[];
}

const ListResult = z.looseObject({
  skills: z.array(z.any()),
  nextCursor: z.optional(z.string()),
});
const GetResult = z.looseObject({ skill: z.any() });
const ChildrenResult = z.looseObject({ resources: z.array(z.any()) });

/** The SDK's own client, with the extension's methods called as custom requests. */
export interface SkillsClient {
  readonly client: Client;
  list(cursor?: string): Promise<{ skills: Entry[]; nextCursor?: string | undefined }>;
  listAll(): Promise<{ skills: Entry[]; pages: number }>;
  get(uri: string): Promise<Entry>;
  children(uri: string): Promise<{ uri: string; name: string; mimeType: string }[]>;
  /** The bytes `resources/read` gives for `uri`. */
  bytes(uri: string): Promise<Buffer>;
  close(): Promise<void>;
}

function skillsClient(client: Client): SkillsClient {
  const list = async (cursor?: string) =>
    (await client.request(
      { method: "skills/list", params: cursor === undefined ? {} : { cursor } },
      ListResult,
    )) as { skills: Entry[]; nextCursor?: string };
  return {
    client,
    list,
    listAll: async () => {
      const skills: Entry[] = [];
      let pages = 0;
      let cursor: string | undefined;
      do {
        const page = await list(cursor);
        pages += 1;
        skills.push(...page.skills);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return { skills, pages };
    },
    get: async (uri) =>
      (
        (await client.request({ method: "skills/get", params: { uri } }, GetResult)) as {
          skill: Entry;
        }
      ).skill,
    children: async (uri) =>
      (
        (await client.request(
          { method: "resources/directory/read", params: { uri } },
          ChildrenResult,
        )) as { resources: { uri: string; name: string; mimeType: string }[] }
      ).resources,
    bytes: async (uri) => {
      const [content] = (await client.readResource({ uri })).contents;
      if (content === undefined) throw new Error(`no content for ${uri}`);
      return "blob" in content
        ? Buffer.from(content.blob, "base64")
        : Buffer.from(content.text, "utf8");
    },
    close: () => client.close(),
  };
}

/** `skillshelf mcp ARGS` as a child process the SDK's client speaks to over stdio. */
async function stdioSkills(
  args: readonly string[],
  options: { readonly cwd: string; readonly env: Record<string, string> },
): Promise<SkillsClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", ...args],
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", ...options.env },
    stderr: "ignore",
  });
  const client = new Client({ name: "skillshelf-test", version: "1" });
  await client.connect(transport);
  return skillsClient(client);
}

/** Run `use` with a client of `skillshelf mcp ARGS` over stdio, closed (the server ends) after. */
export async function withStdioSkills<T>(
  args: readonly string[],
  options: { readonly cwd: string; readonly env: Record<string, string> },
  use: (mcp: SkillsClient) => Promise<T>,
): Promise<T> {
  const mcp = await stdioSkills(args, options);
  try {
    return await use(mcp);
  } finally {
    await mcp.close();
  }
}

/** `skillshelf mcp --http 0 ARGS` started, with the URL it printed and what it printed on stderr. */
export async function httpServer(
  args: readonly string[],
  options: { readonly cwd: string; readonly env: Record<string, string> },
): Promise<{
  readonly url: string;
  readonly child: ChildProcess;
  readonly stderr: () => string;
  stop(): Promise<void>;
}> {
  const child = spawn(process.execPath, [BIN, "mcp", "--http", "0", ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once("line", (line) => resolve(line.slice(line.indexOf("http://"))));
    child.once("exit", (code) => reject(new Error(`skillshelf mcp exited ${code}`)));
  });
  return {
    url,
    child,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** The SDK's client over Streamable HTTP to `url`, sending `headers` with every request. */
export async function httpSkills(
  url: string,
  headers: Record<string, string> = {},
): Promise<SkillsClient> {
  const client = new Client({ name: "skillshelf-test", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  return skillsClient(client);
}

/** A client's first message, as a raw JSON-RPC request. */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
};

/** The status of a raw initialize request to `url` with `headers` (`Host` too: not through fetch, which drops it). */
export function initializeStatus(url: string, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify(INITIALIZE);
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}
