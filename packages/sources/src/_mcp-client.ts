import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { canonicalJson, SkillshelfError, sha256 } from "@skillshelf/core";
import { splitArguments } from "@skillshelf/prompts-loader";
import * as z from "zod/mini";
import { httpOf, type StageOptions } from "./fetchers/_fetcher.js";
import { decodedSegments, SKILLS_EXTENSION, STDIO_PREFIX } from "./mcp-protocol.js";

/** A skill a server lists, its entry checked against SEP-2640's rules for what a host installs. */
export interface ListedSkill {
  /** Its path in the server's namespace (`refunds`, `acme/billing/refunds`): its folder when fetched. */
  readonly path: string;
  readonly entry: WireSkillEntry;
  /** Every file by its path inside the skill, with the URI and digest the server gave it. */
  readonly files: readonly {
    readonly relative: string;
    readonly uri: string;
    readonly digest: string;
  }[];
  /** `sha256:` over the skill's `{uri, digest}` set: what a user's approval and a lock bind to. */
  readonly listingDigest: string;
}

/** A skill entry of `skills/list` or `skills/get` as the server sent it. */
interface WireSkillEntry {
  readonly uri: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly resources?: readonly { readonly uri: string; readonly digest: string }[] | undefined;
}

/** One connection to an MCP skills server, closed (its process ended) by `close`. */
export interface SkillsConnection {
  /** Every skill the server lists, page by page, each checked; a broken entry is refused. */
  list(): Promise<ListedSkill[]>;
  /** The skill at `path`: from the listing, else asked by `skills/get` (a partial listing). */
  skill(path: string): Promise<ListedSkill>;
  /** The bytes of `file`, refused unless they match its digest. */
  read(file: ListedSkill["files"][number]): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** The most pages of `skills/list` read from one server. */
const MAX_PAGES = 10_000;

/**
 * Connect to the server `url` names (`stdio:<command…>`, run with `options.env`; or an http(s)
 * URL spoken to over Streamable HTTP with the host's configured headers) and check that it serves
 * skills. Nothing it sends is ever run: its files are only written where staging puts them.
 */
export async function connectSkills(
  url: string,
  options: StageOptions,
  signal: AbortSignal,
): Promise<SkillsConnection> {
  const stderr: string[] = [];
  const transport = await transportFor(url, options, stderr);
  const client = new Client({ name: "skillshelf", version: "1" }, { capabilities: {} });
  const failed = (error: unknown): SkillshelfError =>
    error instanceof SkillshelfError
      ? error
      : new SkillshelfError(
          "mcp_server_failed",
          `the MCP server ${url} failed: ${error instanceof Error ? error.message : String(error)}${stderr.length === 0 ? "" : ` (it said: ${stderr.join("").trim().slice(-400)})`}`,
          { details: { url }, cause: error },
        );
  try {
    await client.connect(transport, { signal });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw failed(error);
  }
  if (client.getServerCapabilities()?.extensions?.[SKILLS_EXTENSION] === undefined) {
    await client.close();
    throw new SkillshelfError(
      "mcp_not_skills_server",
      `the MCP server ${url} does not declare ${SKILLS_EXTENSION}`,
      { details: { url } },
    );
  }
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw failed(error);
    }
  };
  const list = async (): Promise<ListedSkill[]> => {
    const skills: ListedSkill[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const result = await call(() =>
        client.request(
          { method: "skills/list", params: cursor === undefined ? {} : { cursor } },
          SkillsListResult,
          { signal },
        ),
      );
      skills.push(...result.skills.map((entry) => checkedEntry(entry, url)));
      cursor = result.nextCursor;
      if (cursor === undefined) return skills;
    }
    return skills;
  };
  return {
    list,
    skill: async (path) => {
      const listed = (await list()).find((one) => one.path === path);
      if (listed !== undefined) return listed;
      const asked = await client
        .request(
          { method: "skills/get", params: { uri: `skill://${path}/SKILL.md` } },
          SkillsGetResult,
          {
            signal,
          },
        )
        .catch(() => undefined);
      if (asked === undefined)
        throw new SkillshelfError(
          "mcp_skill_missing",
          `the MCP server ${url} serves no skill ${path}`,
          { details: { url, path } },
        );
      return checkedEntry(asked.skill, url);
    },
    read: async (file) => {
      const result = await call(() => client.readResource({ uri: file.uri }, { signal }));
      const content = result.contents.find((one) => one.uri === file.uri) ?? result.contents[0];
      const bytes =
        content === undefined
          ? new Uint8Array()
          : "blob" in content
            ? Buffer.from(content.blob, "base64")
            : Buffer.from(content.text, "utf8");
      const observed = `sha256:${sha256(bytes)}`;
      if (observed !== file.digest)
        throw new SkillshelfError(
          "digest_mismatch",
          `${file.uri} reads as ${observed}, not the ${file.digest} the server listed`,
          { details: { url: file.uri, expected: file.digest, observed } },
        );
      return bytes;
    },
    close: () => client.close(),
  };
}

// --- internal ---

// what a server sends, as SEP-2640 shapes it; `resources` may be absent (a generated skill)
const SkillEntrySchema = z.looseObject({
  uri: z.string(),
  frontmatter: z.record(z.string(), z.unknown()),
  resources: z.optional(z.array(z.object({ uri: z.string(), digest: z.string() }))),
});
const SkillsListResult = z.looseObject({
  skills: z.array(SkillEntrySchema),
  nextCursor: z.optional(z.string()),
});
const SkillsGetResult = z.looseObject({ skill: SkillEntrySchema });

async function transportFor(
  url: string,
  options: StageOptions,
  stderr: string[],
): Promise<Transport> {
  if (url.startsWith(STDIO_PREFIX)) {
    const line = url.slice(STDIO_PREFIX.length);
    if (options.runsCommand?.(line) !== true)
      throw new SkillshelfError(
        "mcp_command_refused",
        `the MCP server command ${line} was not typed here and is not in your own lock, so it is not run`,
        { details: { command: line } },
      );
    const [command = "", ...args] = splitArguments(line);
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(options.env ?? process.env))
      if (value !== undefined) env[key] = value;
    const transport = new StdioClientTransport({ command, args, env, stderr: "pipe" });
    transport.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.join("").length < 4096) stderr.push(chunk.toString("utf8"));
    });
    return transport;
  }
  // through the one HTTP client: the proxy, and the host's configured headers for its origin alone
  return new StreamableHTTPClientTransport(new URL(url), {
    fetch: httpOf(options).fetchWith(options.headers),
  });
}

/**
 * `entry` checked as SEP-2640 requires of what a host loads: a `…/SKILL.md` URI whose last folder
 * is its frontmatter's name, and a complete digest set whose every file lies inside the skill,
 * once each. A skill served without digests is refused: nothing unverifiable is installed.
 */
function checkedEntry(entry: WireSkillEntry, url: string): ListedSkill {
  const refuse = (problem: string) =>
    new SkillshelfError(
      "mcp_skill_invalid",
      `the MCP server ${url} lists ${entry.uri}: ${problem}`,
      {
        details: { url: url, uri: entry.uri },
      },
    );
  const scheme = entry.uri.indexOf("://");
  if (scheme < 1 || !entry.uri.endsWith("/SKILL.md"))
    throw refuse("its URI does not end in /SKILL.md");
  const root = entry.uri.slice(0, -"/SKILL.md".length);
  const path = decodedSegments(root.slice(scheme + 3))?.join("/");
  if (path === undefined || path === ".") throw refuse("its skill path is not a relative path");
  if (path.split("/").at(-1) !== entry.frontmatter.name)
    throw refuse("its last path segment is not its frontmatter's name");
  if (entry.resources === undefined)
    throw refuse("it lists no digests, so its files cannot be checked");
  const files: { relative: string; uri: string; digest: string }[] = [];
  const seen = new Set<string>();
  for (const resource of entry.resources) {
    const relative = resource.uri.startsWith(`${root}/`)
      ? decodedSegments(resource.uri.slice(root.length + 1))?.join("/")
      : undefined;
    if (relative === undefined || relative === ".")
      throw refuse(`${resource.uri} lies outside the skill`);
    if (!/^sha256:[0-9a-f]{64}$/.test(resource.digest))
      throw refuse(`${resource.uri} has the digest ${resource.digest}, not sha256:<64 hex>`);
    if (seen.has(relative)) throw refuse(`${resource.uri} is listed twice`);
    seen.add(relative);
    files.push({ relative, uri: resource.uri, digest: resource.digest });
  }
  if (!seen.has("SKILL.md")) throw refuse("its digests do not include its SKILL.md");
  const listingDigest = `sha256:${sha256(
    canonicalJson(
      files.map(({ uri, digest }) => ({ uri, digest })).sort((a, b) => (a.uri < b.uri ? -1 : 1)),
    ),
  )}`;
  return { path, entry, files, listingDigest };
}
