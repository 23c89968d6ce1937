import {
  decodeText,
  errnoCode,
  isSkillshelfError,
  readStampedFile,
  SkillshelfError,
  sha256,
  splitFrontmatter,
} from "@skillshelf/core";
import { MAX_SKILL_BYTES } from "./_read-skill.js";
import type { Skill } from "./types.js";

/**
 * Read a loaded skill's body (the markdown after its frontmatter) for activation. The file must
 * still be the one that was loaded (its `stamp`: inode, size and times): if it changed since, this
 * throws `skill_changed` so the host reloads instead of activating content the listing never
 * described. A body that is not UTF-8 text throws `file_not_utf8` or `file_contains_nul`.
 */
export function readSkillBody(skill: Pick<Skill, "path" | "realPath" | "stamp" | "body">): string {
  if (skill.body !== undefined) return skill.body;
  return bodyOf(skillText(skill, skillBytes(skill)));
}

/** A skill's body and the sha256 of its whole file. */
export interface SkillContent {
  readonly body: string;
  readonly hash: string;
}

/**
 * `readSkillBody` and `skillFileHash` from one read of the file (on the same terms: it must still
 * hold the skill's `stamp`), for a host that needs both: the kept ones when the load kept them.
 */
export function readSkillContent(
  skill: Pick<Skill, "path" | "realPath" | "stamp" | "body" | "hash">,
): SkillContent {
  if (skill.body !== undefined && skill.hash !== undefined)
    return { body: skill.body, hash: skill.hash };
  const bytes = skillBytes(skill);
  return { body: bodyOf(skillText(skill, bytes)), hash: sha256(bytes) };
}

/** The sha256 of a loaded skill's file: `hash` when the load kept it, else read while the file holds its `stamp`. */
export function skillFileHash(skill: Pick<Skill, "path" | "realPath" | "stamp" | "hash">): string {
  return skill.hash ?? sha256(skillBytes(skill));
}

// --- internal ---

function bodyOf(text: string): string {
  const split = splitFrontmatter(text);
  return split.kind === "found" ? split.body : "";
}

function skillText(skill: Pick<Skill, "path">, bytes: Buffer): string {
  const decoded = decodeText(bytes);
  if (decoded.ok) return decoded.text;
  throw new SkillshelfError(
    decoded.reason === "nul" ? "file_contains_nul" : "file_not_utf8",
    `${skill.path} is not UTF-8 text; it must be a document, not a binary payload`,
    { path: skill.path },
  );
}

function skillBytes(skill: Pick<Skill, "path" | "realPath" | "stamp">): Buffer {
  let bytes: Buffer | undefined;
  try {
    bytes = readStampedFile(skill.realPath, MAX_SKILL_BYTES, skill.stamp);
  } catch (error) {
    if (!isSkillshelfError(error))
      throw new SkillshelfError(
        "read_failed",
        `cannot read ${skill.path} (${errnoCode(error) ?? "error"})`,
        { path: skill.path, cause: error },
      );
  }
  if (bytes === undefined)
    throw new SkillshelfError("skill_changed", `${skill.path} changed after it was loaded`, {
      path: skill.path,
    });
  return bytes;
}
