import {
  decodeText,
  errnoCode,
  isSkillshelfError,
  readRegularFile,
  SkillshelfError,
  sha256,
  splitFrontmatter,
} from "@skillshelf/core";
import { MAX_SKILL_BYTES } from "./_read-skill.js";
import type { Skill } from "./types.js";

/**
 * Read a loaded skill's body (the markdown after its frontmatter) for activation. The file must
 * still be the one that was loaded: if its bytes changed since, this throws `skill_changed` so the
 * host reloads instead of activating content the listing never described.
 */
export function readSkillBody(skill: Pick<Skill, "path" | "realPath" | "hash" | "body">): string {
  if (skill.body !== undefined) return skill.body;
  let bytes: Buffer;
  try {
    bytes = readRegularFile(skill.realPath, MAX_SKILL_BYTES);
  } catch (error) {
    if (isSkillshelfError(error))
      throw new SkillshelfError("skill_changed", `${skill.path} changed after it was loaded`, {
        path: skill.path,
      });
    throw new SkillshelfError(
      "read_failed",
      `cannot read ${skill.path} (${errnoCode(error) ?? "error"})`,
      {
        path: skill.path,
        cause: error,
      },
    );
  }
  const decoded = decodeText(bytes);
  if (sha256(bytes) !== skill.hash || !decoded.ok) {
    throw new SkillshelfError("skill_changed", `${skill.path} changed after it was loaded`, {
      path: skill.path,
    });
  }
  const split = splitFrontmatter(decoded.text);
  return split.kind === "found" ? split.body : "";
}
