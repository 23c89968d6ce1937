import { extname } from "node:path";
import { compareText, decodeText } from "@skillshelf/core";
import { SKILL_LIMITS } from "@skillshelf/sources";
import { invalidParams } from "./_errors.js";
import { readFileBytes } from "./_files.js";
import type { Listing, ServedSkill } from "./_listing.js";
import { parseSkillUri, skillUri } from "./_uri.js";

/**
 * The served skill a URI names (with `skill`, the URI must be its `SKILL.md`, as `skills/get`
 * takes), and the path inside it. Anything else is refused as invalid params: a URI that is not a
 * `skill://` one, or names a skill that is not served (untrusted, disabled, absent) alike.
 */
export function served(
  listing: Listing,
  uri: unknown,
  expect: "skill" | "any" = "any",
): ServedSkill & { readonly relative: string } {
  const parsed = typeof uri === "string" ? parseSkillUri(uri) : undefined;
  if (parsed === undefined)
    throw invalidParams(
      "mcp_uri_invalid",
      `${String(uri)} is not a skill:// URI of a file inside a skill`,
      {
        uri,
      },
    );
  const skill = listing.byName.get(parsed.name);
  const over = listing.declined.get(parsed.name);
  if (over !== undefined)
    throw invalidParams(
      "mcp_skill_over_limit",
      `${String(uri)} is not served: its skill holds ${over.files} files and ${over.bytes} bytes, over SEP-2640's ${SKILL_LIMITS.files} and ${SKILL_LIMITS.bytes}`,
      { uri, ...over },
    );
  if (skill === undefined || (expect === "skill" && parsed.relative !== "SKILL.md"))
    throw invalidParams("mcp_uri_unknown", `${String(uri)} names no skill this server serves`, {
      uri,
    });
  return { ...skill, relative: parsed.relative };
}

/** `resources/read` of a served file: its bytes exactly as on disk (text when they are a text document). */
export function readSkillFile(
  listing: Listing,
  uri: string,
):
  | { uri: string; mimeType: string; text: string }
  | { uri: string; mimeType: string; blob: string } {
  const { files, relative } = served(listing, uri);
  const real = files.get(relative);
  const bytes = real === undefined ? undefined : readFileBytes(real);
  if (bytes === undefined)
    throw invalidParams("mcp_uri_unknown", `${uri} names no file this server serves`, { uri });
  const mimeType = mimeTypeOf(relative);
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
  const { skill, files, relative } = served(listing, uri);
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
    .map(([name, folder]) => ({
      uri: skillUri(skill.name, prefix + name),
      name,
      mimeType: folder ? DIRECTORY_TYPE : mimeTypeOf(name),
    }));
}

// --- internal ---

const DIRECTORY_TYPE = "inode/directory";

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
