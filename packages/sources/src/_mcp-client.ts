import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { canonicalJson, type Diagnostic, SkillshelfError, sha256 } from "@skillshelf/core";
import { splitArguments } from "@skillshelf/prompts-loader";
import * as z from "zod/mini";
import { httpOf, type StageOptions } from "./fetchers/_fetcher.js";
import {
  decodedSegments,
  overSkillLimits,
  SKILL_LIMITS,
  SKILLS_EXTENSION,
  STDIO_PREFIX,
} from "./mcp-protocol.js";

/** A skill a server lists, its entry checked against SEP-2640's rules for what a host installs. */
export interface ListedSkill {
  /** Its path in the server's namespace (`refunds`, `acme/billing/refunds`): its folder when fetched. */
  readonly path: string;
  readonly entry: WireSkillEntry;
  /** Every file by its path inside the skill, with the URI, digest and size the server gave it. */
  readonly files: readonly {
    readonly relative: string;
    readonly uri: string;
    readonly digest: string;
    readonly size: number;
  }[];
  /** `sha256:` over the skill's `{uri, digest}` set: what a user's approval and a lock bind to. */
  readonly listingDigest: string;
}

/** A skill entry of `skills/list` or `skills/get` as the server sent it (its shape checked). */
interface WireSkillEntry {
  readonly uri: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly resources: readonly WireResource[] | "dynamic";
}

interface WireResource {
  readonly uri: string;
  readonly digest: string;
  readonly size: number;
}

/** What a server lists: the skills a host may install, and each entry declined alone, with why. */
interface ServerListing {
  readonly skills: readonly ListedSkill[];
  /** Entries not installable (dynamic, over SEP-2640's limits, or malformed), each with its code. */
  readonly declined: readonly { readonly uri: string; readonly error: SkillshelfError }[];
}

/** One connection to an MCP skills server, closed (its process ended) by `close`. */
export interface SkillsConnection {
  /** Every skill the server lists, page by page, each entry judged alone. */
  list(): Promise<ServerListing>;
  /**
   * The skill at `path`: from the listing, else asked by `skills/get` (a partial listing) under the
   * listing's own URI scheme; refused with its entry's code when the server's entry is declined.
   */
  skill(path: string): Promise<ListedSkill>;
  /** The bytes of `file`, refused unless they have its size and match its digest. */
  read(file: ListedSkill["files"][number]): Promise<Uint8Array>;
  close(): Promise<void>;
}

/**
 * An upstream SEP-2640 server as a gateway relays it: under a name of its own, listing only the
 * skills that may be relayed now (each withheld one by its path upstream, with why), every read
 * refused unless it has the listed size and digest.
 */
export interface SkillsUpstream {
  /** The namespace its skills are served under: one path segment. */
  readonly name: string;
  list(): Promise<{
    readonly skills: readonly ListedSkill[];
    readonly withheld: readonly { readonly path: string; readonly diagnostic: Diagnostic }[];
  }>;
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
  const list = async (): Promise<ServerListing> => {
    const skills: ListedSkill[] = [];
    const declined: { uri: string; error: SkillshelfError }[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const result = await call(() =>
        client.request(
          { method: "skills/list", params: cursor === undefined ? {} : { cursor } },
          SkillsListResult,
          { signal },
        ),
      );
      for (const wire of result.skills) {
        const judged = judgedEntry(wire, url);
        if ("error" in judged) declined.push(judged);
        else skills.push(judged);
      }
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return { skills, declined };
  };
  return {
    list,
    skill: async (path) => {
      const listing = await list();
      const listed = listing.skills.find((one) => one.path === path);
      if (listed !== undefined) return listed;
      const refused = listing.declined.find((one) => one.error.details?.path === path);
      if (refused !== undefined) throw refused.error;
      // no scheme is privileged: ask in the one the server lists its skills under
      const scheme =
        [
          ...listing.skills.map((one) => one.entry.uri),
          ...listing.declined.map((one) => one.uri),
        ][0]?.split("://")[0] ?? "skill";
      const asked = await client
        .request(
          { method: "skills/get", params: { uri: `${scheme}://${path}/SKILL.md` } },
          SkillsGetResult,
          { signal },
        )
        .catch(() => undefined);
      if (asked === undefined)
        throw new SkillshelfError(
          "mcp_skill_missing",
          `the MCP server ${url} serves no skill ${path}`,
          { details: { url, path } },
        );
      const judged = judgedEntry(asked.skill, url);
      if ("error" in judged) throw judged.error;
      return judged;
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
      // SEP-2640: a length unlike the listed size fails as a digest would, before any hashing
      if (bytes.byteLength !== file.size)
        throw new SkillshelfError(
          "mcp_size_mismatch",
          `${file.uri} reads as ${bytes.byteLength} bytes, not the ${file.size} the server listed`,
          { details: { url: file.uri, expected: file.size, observed: bytes.byteLength } },
        );
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

// what a server sends, as SEP-2640 (stable) shapes it: each entry is judged alone, so the page
// takes any entries and `judgedEntry` checks each one's shape
const SkillEntrySchema = z.looseObject({
  uri: z.string(),
  frontmatter: z.record(z.string(), z.unknown()),
  resources: z.union([
    z.literal("dynamic"),
    z.array(
      z.looseObject({
        uri: z.string(),
        digest: z.string(),
        size: z.number().check(z.int(), z.nonnegative()),
      }),
    ),
  ]),
});
const SkillsListResult = z.looseObject({
  skills: z.array(z.unknown()),
  nextCursor: z.optional(z.string()),
});
const SkillsGetResult = z.looseObject({ skill: z.unknown() });

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
 * One entry of a server's, judged alone as SEP-2640 (stable) requires of what a host installs: a
 * well-formed entry whose `…/SKILL.md` URI ends in its frontmatter's name, with a complete set of
 * files each inside the skill once, with a `sha256:` digest and a size, within the per-skill
 * limits. A dynamic skill (no digests to pin) is declined with its own code, as is one over the
 * limits (before any of its files is read); anything else malformed is `mcp_skill_invalid`.
 */
function judgedEntry(
  wire: unknown,
  url: string,
): ListedSkill | { readonly uri: string; readonly error: SkillshelfError } {
  // what the entry says it is, before its shape is known: for the finding that names it
  const said = (wire as { uri?: unknown } | null | undefined)?.uri;
  const uri = typeof said === "string" ? said : "(an entry with no uri)";
  const scheme = uri.indexOf("://");
  const root = uri.endsWith("/SKILL.md") ? uri.slice(0, -"/SKILL.md".length) : undefined;
  const path =
    root === undefined || scheme < 1
      ? undefined
      : decodedSegments(root.slice(scheme + 3))?.join("/");
  const declined = (
    code: "mcp_skill_invalid" | "mcp_skill_dynamic" | "mcp_skill_over_limit",
    problem: string,
    details: Record<string, unknown> = {},
  ) => ({
    uri,
    error: new SkillshelfError(code, `the MCP server ${url} lists ${uri}: ${problem}`, {
      details: { url, uri, ...(path === undefined ? {} : { path }), ...details },
    }),
  });
  const parsed = SkillEntrySchema.safeParse(wire);
  if (!parsed.success)
    return declined(
      "mcp_skill_invalid",
      `its entry is not a SEP-2640 skill entry (${parsed.error.issues[0]?.path.join(".") || "entry"}: ${parsed.error.issues[0]?.message})`,
    );
  const entry: WireSkillEntry = parsed.data;
  if (scheme < 1 || root === undefined)
    return declined("mcp_skill_invalid", "its URI does not end in /SKILL.md");
  if (path === undefined)
    return declined("mcp_skill_invalid", "its skill path is not a relative path");
  if (path.split("/").at(-1) !== entry.frontmatter.name)
    return declined("mcp_skill_invalid", "its last path segment is not its frontmatter's name");
  if (entry.resources === "dynamic")
    return declined(
      "mcp_skill_dynamic",
      "it is served as dynamic: its content cannot be pinned by digests",
    );
  const bytes = entry.resources.reduce((sum, resource) => sum + resource.size, 0);
  if (overSkillLimits(entry.resources.length, bytes))
    return declined(
      "mcp_skill_over_limit",
      `it holds ${entry.resources.length} files and ${bytes} bytes, over SEP-2640's ${SKILL_LIMITS.files} and ${SKILL_LIMITS.bytes}`,
      { files: entry.resources.length, bytes },
    );
  const files: { relative: string; uri: string; digest: string; size: number }[] = [];
  const seen = new Set<string>();
  for (const resource of entry.resources) {
    const relative = resource.uri.startsWith(`${root}/`)
      ? decodedSegments(resource.uri.slice(root.length + 1))?.join("/")
      : undefined;
    if (relative === undefined || relative === ".")
      return declined("mcp_skill_invalid", `${resource.uri} lies outside the skill`);
    if (!/^sha256:[0-9a-f]{64}$/.test(resource.digest))
      return declined(
        "mcp_skill_invalid",
        `${resource.uri} has the digest ${resource.digest}, not sha256:<64 hex>`,
      );
    if (seen.has(relative)) return declined("mcp_skill_invalid", `${resource.uri} is listed twice`);
    seen.add(relative);
    files.push({ relative, uri: resource.uri, digest: resource.digest, size: resource.size });
  }
  if (!seen.has("SKILL.md"))
    return declined("mcp_skill_invalid", "its digests do not include its SKILL.md");
  const listingDigest = `sha256:${sha256(
    canonicalJson(
      files.map(({ uri, digest }) => ({ uri, digest })).sort((a, b) => (a.uri < b.uri ? -1 : 1)),
    ),
  )}`;
  return { path, entry, files, listingDigest };
}
