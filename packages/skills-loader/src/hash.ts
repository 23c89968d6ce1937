import { canonicalJson, createSha256, parseFrontmatter, sha256 } from "@skillshelf/core";
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
 * A loaded skill's identity: `normalizedSkillHash` of its file, from the frontmatter
 * the loader already parsed and the body read back, so no YAML is parsed again. Copies whose
 * identities are equal say the same thing, install stamps aside; a file that changed since it
 * was loaded (or whose body cannot be read) has an identity of its own, from its path and stamp.
 */
export function skillIdentity(
  skill: Pick<Skill, "frontmatter" | "path" | "realPath" | "stamp" | "body">,
): string {
  try {
    return normalizedHashOf(skill.frontmatter, readSkillBody(skill));
  } catch {
    return sha256(`changed\n${skill.realPath}\n${canonicalJson(skill.stamp)}`);
  }
}

// --- internal ---

function normalizedHashOf(frontmatter: Readonly<Record<string, unknown>>, body: string): string {
  let data = withoutLifecycleKeys(frontmatter);
  if (isMapping(data.skillshelf)) {
    const block = withoutLifecycleKeys(data.skillshelf);
    if (block !== data.skillshelf) {
      const { skillshelf: _stamped, ...rest } = data;
      data = Object.keys(block).length === 0 ? rest : { ...rest, skillshelf: block };
    }
  }
  return createSha256()
    .update(canonicalYamlJson(data))
    .update("\n")
    .update(toLf(body))
    .digest("hex");
}

const LIFECYCLE = new Set(LIFECYCLE_KEYS);

/** The mapping without its lifecycle keys: itself when it has none (most files). */
function withoutLifecycleKeys(mapping: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (!Object.keys(mapping).some((key) => LIFECYCLE.has(key))) return mapping;
  return Object.fromEntries(Object.entries(mapping).filter(([key]) => !LIFECYCLE.has(key)));
}

function toLf(text: string): string {
  return text.replaceAll("\r\n", "\n");
}

/**
 * `canonicalJson` of parsed YAML: sorted keys, `undefined` left out, and the numbers YAML allows
 * but JSON does not (`.inf`, `.nan`) spelled as YAML does.
 */
function canonicalYamlJson(value: unknown): string {
  if (typeof value === "number" && !Number.isFinite(value))
    return canonicalJson({ "!yaml": Number.isNaN(value) ? ".nan" : value > 0 ? ".inf" : "-.inf" });
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? "null" : canonicalYamlJson(item))).join(",")}]`;
  if (isMapping(value)) {
    const entries: string[] = [];
    for (const key of Object.keys(value).sort())
      if (value[key] !== undefined)
        entries.push(`${JSON.stringify(key)}:${canonicalYamlJson(value[key])}`);
    return `{${entries.join(",")}}`;
  }
  return canonicalJson(value);
}
