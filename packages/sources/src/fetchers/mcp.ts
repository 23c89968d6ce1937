import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  canonicalJson,
  createDiagnostic,
  parseFrontmatter,
  SkillshelfError,
  sha256,
} from "@skillshelf/core";
import { DEFAULT_ARCHIVE_LIMITS } from "../_archive.js";
import type { ListedSkill, SkillsConnection } from "../_mcp-client.js";
import { STDIO_PREFIX } from "../mcp-protocol.js";
import { type Fetcher, fetchSignal, type StageOptions } from "./_fetcher.js";
import { urlPlace } from "./_place.js";
import { subfolderWithin } from "./_subfolder.js";
import {
  fragmentFields,
  insecureUrl,
  invalidSource,
  splitFragment,
  splitSubfolder,
  urlWithCredentials,
  withSubfolder,
} from "./_syntax.js";
import { writeMember } from "./_write-member.js";

/**
 * An MCP server that serves skills (SEP-2640): `mcp+stdio:<command…>`, a process started with
 * that command line, or `mcp+https://host/path`, spoken to over Streamable HTTP. Its listing
 * names each skill's files with their digests; every file is read and checked against its digest
 * before it is written, and the skill's `SKILL.md` frontmatter against the listed one. A skill's
 * commit is the digest of its `{uri, digest}` set, so `update --check` asks the listing alone.
 */
export const MCP_FETCHER: Fetcher<"mcp"> = {
  syntax: "mcp+stdio:<command…>[#path=<skill>] or mcp+https://host/path[//<skill>]",
  parse: (text) => {
    if (!text.startsWith(PREFIX)) return undefined;
    const [location = "", fragment] = splitFragment(text.slice(PREFIX.length));
    const fields = fragmentFields(fragment, "path", ["path"]);
    if (!fields.ok) return fields;
    if (location.startsWith(STDIO_PREFIX)) {
      const command = location.slice(STDIO_PREFIX.length).trim();
      if (command === "")
        return invalidSource(`${text}: mcp+stdio: needs the command that starts the server`);
      return withSubfolder({ type: "mcp", url: `${STDIO_PREFIX}${command}` }, fields.path);
    }
    const [url, subfolder] = splitSubfolder(location);
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
      return invalidSource(`${text}: write mcp+stdio:<command> or mcp+https://<host>/<path>`);
    const parsed = new URL(url);
    const refused = insecureUrl(parsed) ?? urlWithCredentials(parsed);
    if (refused !== undefined) return refused;
    return withSubfolder({ type: "mcp", url }, subfolder ?? fields.path);
  },
  fetch: async (source, into, options) => {
    const connection = await connect(source.url, options);
    try {
      const budget = { ...DEFAULT_ARCHIVE_LIMITS, ...options.limits };
      if (source.path !== undefined) {
        const skill = await connection.skill(source.path);
        await writeSkill(connection, skill, into.dir, budget);
        return { commit: skill.listingDigest };
      }
      mkdirSync(into.dir);
      const commits: Record<string, string> = {};
      const listing = await connection.list();
      for (const skill of listing.skills) {
        await writeSkill(connection, skill, join(into.dir, skill.path), budget);
        commits[skill.path] = skill.listingDigest;
      }
      // an entry the server serves that cannot be installed is left out alone, and said so
      const findings = listing.declined.map(({ uri, error }) =>
        createDiagnostic("warning", error.code, `${error.message}; it is left out`, {
          details: { ...error.details, uri },
        }),
      );
      return { commits, ...(findings.length === 0 ? {} : { findings }) };
    } finally {
      await connection.close();
    }
  },
  describe: (source) => {
    const path =
      source.path === undefined
        ? ""
        : source.url.startsWith(STDIO_PREFIX)
          ? `#path=${source.path}`
          : `//${source.path}`;
    return `${PREFIX}${source.url}${path}`;
  },
  origin: (source) => ({ kind: "mcp", url: source.url }),
  place: (source) => urlPlace(source.url),
  upstreamUrl: (source) => (source.url.startsWith(STDIO_PREFIX) ? undefined : source.url),
  pinned: () => false,
  command: (source) =>
    source.url.startsWith(STDIO_PREFIX) ? source.url.slice(STDIO_PREFIX.length) : undefined,
  within: subfolderWithin,
  newest: async (source, options) => {
    const connection = await connect(source.url, options);
    try {
      if (source.path !== undefined)
        return await connection.skill(source.path).then(
          (skill) => skill.listingDigest,
          (error: unknown) => {
            if (error instanceof SkillshelfError && error.code === "mcp_skill_missing")
              return undefined;
            throw error;
          },
        );
      const { skills } = await connection.list();
      return `sha256:${sha256(canonicalJson(skills.map((one) => [one.path, one.listingDigest])))}`;
    } finally {
      await connection.close();
    }
  },
};

/**
 * A connection to the server an `mcp` source's `url` names, kept open until closed (a gateway
 * relays its skills): each entry judged alone, every read checked against its listed size and
 * digest. The MCP SDK is loaded only now: no other command pays for it. `options.signal` ends it.
 */
export async function connectSkillsServer(
  url: string,
  options: StageOptions,
): Promise<SkillsConnection> {
  const { connectSkills } = await import("../_mcp-client.js");
  return connectSkills(url, options, options.signal ?? new AbortController().signal);
}

/**
 * SEP-2640: the `SKILL.md` read must carry the frontmatter the listing showed, field for field
 * (`mcp_skill_invalid` otherwise): the listing's frontmatter is not covered by the digests.
 */
export function checkListedFrontmatter(skill: ListedSkill, bytes: Uint8Array): void {
  const parsed = parseFrontmatter(Buffer.from(bytes).toString("utf8"));
  const read = parsed.ok ? canonicalJson(JSON.parse(JSON.stringify(parsed.data))) : undefined;
  if (read !== canonicalJson(skill.entry.frontmatter))
    throw new SkillshelfError(
      "mcp_skill_invalid",
      `${skill.entry.uri} has a frontmatter unlike the one the server listed for it`,
      { details: { uri: skill.entry.uri } },
    );
}

// --- internal ---

const PREFIX = "mcp+";

/** A connection for one fetch: it ends with the fetch's timeout. */
function connect(url: string, options: StageOptions): Promise<SkillsConnection> {
  return connectSkillsServer(url, { ...options, signal: fetchSignal(options) });
}

/** What one fetch may still write: files and bytes over every skill it writes. */
interface Budget {
  maxEntries: number;
  maxUnpackedBytes: number;
}

async function writeSkill(
  connection: SkillsConnection,
  skill: ListedSkill,
  dir: string,
  budget: Budget,
): Promise<void> {
  budget.maxEntries -= skill.files.length;
  if (budget.maxEntries < 0)
    throw new SkillshelfError(
      "archive_too_many_entries",
      `the skill ${skill.path} takes the fetch over its limit of files`,
      { details: { uri: skill.entry.uri } },
    );
  for (const file of skill.files) {
    const bytes = await connection.read(file);
    budget.maxUnpackedBytes -= bytes.byteLength;
    if (budget.maxUnpackedBytes < 0)
      throw new SkillshelfError(
        "archive_too_large",
        `the skill ${skill.path} takes the fetch over its limit of bytes`,
        { details: { uri: file.uri } },
      );
    if (file.relative === "SKILL.md") checkListedFrontmatter(skill, bytes);
    writeMember(join(dir, file.relative), bytes);
  }
}
