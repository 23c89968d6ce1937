import { extname } from "node:path";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { compareText, decodeText, SkillshelfError } from "@skillshelf/core";
import { SKILL_LIMITS } from "@skillshelf/sources/mcp-protocol";
import { invalidParams } from "./_errors.js";
import { readFileBytes } from "./_files.js";
import type { Listing, ServedSkill } from "./_listing.js";
import { type RelayedSkill, relayedAt } from "./_relay.js";
import { parseSkillUri, skillUri } from "./_uri.js";

/** A skill served here: one of the library's, or one relayed from an upstream. */
export type AnyServed = ServedSkill | RelayedSkill;

/**
 * The served skill a URI names (with `skill`, the URI must be its `SKILL.md`, as `skills/get`
 * takes), and the path inside it: a relayed one when the URI's first segment is an upstream's
 * name, else one of the library's. Anything else is refused as invalid params: a URI that is not
 * a `skill://` one, or names a skill that is not served (untrusted, disabled, absent, withheld
 * until approved) alike, each with its code.
 */
export function served(
  listing: Listing,
  uri: unknown,
  expect: "skill" | "any" = "any",
): AnyServed & { readonly relative: string } {
  const parsed = typeof uri === "string" ? parseSkillUri(uri) : undefined;
  if (parsed === undefined)
    throw invalidParams(
      "mcp_uri_invalid",
      `${String(uri)} is not a skill:// URI of a file inside a skill`,
      {
        uri,
      },
    );
  const unknown = () =>
    invalidParams("mcp_uri_unknown", `${String(uri)} names no skill this server serves`, { uri });
  const relayed = relayedAt(listing.relayed, [parsed.name, ...parsed.relative.split("/")]);
  if (relayed !== undefined) {
    if (expect === "skill" && relayed.relative !== "SKILL.md") throw unknown();
    return { ...relayed.skill, relative: relayed.relative };
  }
  const withheld = listing.relayed.withheld.get(String(uri));
  if (withheld !== undefined)
    throw invalidParams(withheld.code, `${String(uri)} is not served: ${withheld.message}`, {
      uri,
      ...withheld.details,
    });
  const skill = listing.byName.get(parsed.name);
  const over = listing.declined.get(parsed.name);
  if (over !== undefined)
    throw invalidParams(
      "mcp_skill_over_limit",
      `${String(uri)} is not served: its skill holds ${over.files} files and ${over.bytes} bytes, over SEP-2640's ${SKILL_LIMITS.files} and ${SKILL_LIMITS.bytes}`,
      { uri, ...over },
    );
  if (skill === undefined || (expect === "skill" && parsed.relative !== "SKILL.md"))
    throw unknown();
  return { ...skill, relative: parsed.relative };
}

/**
 * `resources/read` of the file `uri` names in `skill` (what `served` found for it): its bytes
 * exactly as on disk, or as its upstream served them once they have the listed size and digest
 * (text when they are a text document).
 */
export async function readSkillFile(
  skill: AnyServed & { readonly relative: string },
  uri: string,
): Promise<
  { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string }
> {
  const bytes = await bytesOf(skill);
  if (bytes === undefined)
    throw invalidParams("mcp_uri_unknown", `${uri} names no file this server serves`, { uri });
  const mimeType = mimeTypeOf(skill.relative);
  const decoded = decodeText(bytes);
  return decoded.ok
    ? { uri, mimeType, text: decoded.text }
    : { uri, mimeType, blob: Buffer.from(bytes).toString("base64") };
}

/** `resources/directory/read`: the files and folders directly inside a served skill's folder. */
export function directoryChildren(
  listing: Listing,
  uri: unknown,
): { uri: string; name: string; mimeType: string }[] {
  const { name, files, relative } = served(listing, uri);
  const prefix = relative === "" ? "" : `${relative}/`;
  const children = new Map<string, boolean>();
  for (const path of files.keys()) {
    if (!path.startsWith(prefix)) continue;
    const [child = "", ...deeper] = path.slice(prefix.length).split("/");
    children.set(child, deeper.length > 0 || children.get(child) === true);
  }
  if (children.size === 0)
    throw invalidParams("mcp_uri_unknown", `${String(uri)} names no folder this server serves`, {
      uri,
    });
  return [...children]
    .sort(([a], [b]) => compareText(a, b))
    .map(([child, folder]) => ({
      uri: skillUri(name, prefix + child),
      name: child,
      mimeType: folder ? DIRECTORY_TYPE : mimeTypeOf(child),
    }));
}

// --- internal ---

const DIRECTORY_TYPE = "inode/directory";

/**
 * The bytes of a served file: read from disk (never through a link), or from its upstream, which
 * refuses them unless they are what it listed; `undefined` when it is not one of the skill's files.
 */
async function bytesOf(
  skill: AnyServed & { readonly relative: string },
): Promise<Uint8Array | undefined> {
  if ("upstream" in skill) {
    const file = skill.files.get(skill.relative);
    if (file === undefined) return undefined;
    try {
      return await skill.upstream.read(file);
    } catch (error) {
      throw relayFailure(error, file.uri);
    }
  }
  const real = skill.files.get(skill.relative);
  return real === undefined ? undefined : readFileBytes(real);
}

/** An upstream's refusal as the client is told it: its code (a digest that does not match, a server that failed). */
function relayFailure(error: unknown, upstreamUri: string): McpError {
  const code = error instanceof SkillshelfError ? error.code : "mcp_server_failed";
  const message = error instanceof Error ? error.message : String(error);
  return new McpError(
    ErrorCode.InternalError,
    `the upstream could not serve ${upstreamUri}: ${message}`,
    {
      code,
    },
  );
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".txt": "text/plain",
  ".json": "application/json",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".py": "text/x-python",
  ".sh": "text/x-shellscript",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".ts": "text/x-typescript",
  ".html": "text/html",
  ".css": "text/css",
  ".csv": "text/csv",
  ".xml": "application/xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".svg": "image/svg+xml",
  ".pdf": "application/pdf",
};

function mimeTypeOf(path: string): string {
  return MIME_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
}
