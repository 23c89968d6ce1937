import { canonicalJson, parseFrontmatter, sha256 } from "@skillshelf/core";
import { readSkillBody } from "./body.js";
import { isMapping, LIFECYCLE_KEYS } from "./provenance.js";
import type { Skill } from "./types.js";

/**
 * The hash of a skill's content without its install stamps, so a source and its installed copy
 * hash equal. The frontmatter is parsed, the lifecycle keys (`source-url`, `installed-at`,
 * `updated-at`, `installed-hash`, `audit`, `installed-by` and their spellings) are removed at the
 * top level and inside the `skillshelf:` block (dropping the block when it empties), and the rest
 * is serialised as canonical JSON; the body follows with line endings made LF. A file whose
 * frontmatter cannot be read hashes its LF-normalised text.
 */
export function normalizedSkillHash(text: string): string {
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) return sha256(`raw\n${toLf(text)}`);
  return normalizedHashOf(parsed.data, parsed.body);
}

/**
 * A loaded skill's identity (DESIGN §10): `normalizedSkillHash` of its file, from the frontmatter
 * the loader already parsed and the body read back, so no YAML is parsed again. Copies whose
 * identities are equal say the same thing, install stamps aside; a file that changed since it
 * was loaded has the identity of its bytes as loaded.
 */
export function skillIdentity(
  skill: Pick<Skill, "frontmatter" | "path" | "realPath" | "hash" | "body">,
): string {
  try {
    return normalizedHashOf(skill.frontmatter, readSkillBody(skill));
  } catch {
    return sha256(`changed\n${skill.hash}`);
  }
}

// --- internal ---

function normalizedHashOf(frontmatter: Readonly<Record<string, unknown>>, body: string): string {
  const data: Record<string, unknown> = { ...frontmatter };
  removeLifecycleKeys(data);
  if (isMapping(data.skillshelf)) {
    const block = { ...data.skillshelf };
    removeLifecycleKeys(block);
    if (Object.keys(block).length === 0) delete data.skillshelf;
    else data.skillshelf = block;
  }
  return sha256(`${canonicalJson(jsonSafe(data))}\n${toLf(body)}`);
}

function removeLifecycleKeys(mapping: Record<string, unknown>): void {
  for (const key of LIFECYCLE_KEYS) delete mapping[key];
}

function toLf(text: string): string {
  return text.replaceAll("\r\n", "\n");
}

/** YAML allows `.inf` and `.nan`, JSON does not: spell them as YAML does. */
function jsonSafe(value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value)) {
    return { "!yaml": Number.isNaN(value) ? ".nan" : value > 0 ? ".inf" : "-.inf" };
  }
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (isMapping(value))
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, jsonSafe(item)]));
  return value;
}
