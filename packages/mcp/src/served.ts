import { isModelVisible, type Skill } from "@skillshelf/skills-loader";
import { overSkillLimits } from "@skillshelf/sources/mcp-protocol";
import { createFileCache, fileSize, skillFiles } from "./_files.js";

/** Why a loaded skill is not served over MCP. */
export type WithheldReason =
  /** From a folder that is not trusted (another agent's, an import not trusted). */
  | "untrusted"
  /** `disable-model-invocation: true`: for the operator only. */
  | "operator-only"
  /** Its name cannot be addressed by `/skill <name>`. */
  | "not-addressable"
  /** It cannot be used (a reference that names nothing, a file that cannot be read). */
  | "unavailable"
  /** Its frontmatter does not name it as it is known: SEP-2640 requires the two to be equal. */
  | "name-mismatch"
  /** More files or bytes than SEP-2640's per-skill limits (512, 16 MiB): no host need load it. */
  | "over-limit";

/** The skills an MCP client of `skillshelf mcp` gets, and those it does not, with why. */
export interface ServedSkills {
  /** The trusted, model-visible skills, in the order given. */
  readonly served: readonly Skill[];
  readonly withheld: readonly { readonly skill: Skill; readonly reason: WithheldReason }[];
}

/**
 * Split loaded skills into those an MCP client is served (exactly the skills a model may see,
 * trusted and model-visible, whose frontmatter `name` is their name, within SEP-2640's per-skill
 * limits) and those it is not, with why. `files: false` leaves the limits out (no skill's folder
 * is walked): what a server that measures each skill as it lists it asks.
 */
export function servedSkills(
  skills: readonly Skill[],
  { files = true }: { readonly files?: boolean } = {},
): ServedSkills {
  const served: Skill[] = [];
  const withheld: { skill: Skill; reason: WithheldReason }[] = [];
  const cache = files ? createFileCache() : undefined;
  for (const skill of skills) {
    const reason =
      withheldReason(skill) ??
      (cache !== undefined && overLimit(skill, cache) ? "over-limit" : undefined);
    if (reason === undefined) served.push(skill);
    else withheld.push({ skill, reason });
  }
  return { served, withheld };
}

/** True when `skill`'s files are more, or more bytes, than SEP-2640 lets a host be asked to load. */
function overLimit(skill: Skill, cache: ReturnType<typeof createFileCache>): boolean {
  const { files } = skillFiles(skill, cache);
  let bytes = 0;
  for (const file of files) bytes += fileSize(file.real);
  return overSkillLimits(files.length, bytes);
}

/** Why `skill` is not served over MCP (its files not counted), or `undefined` when it is. */
export function withheldReason(skill: Skill): WithheldReason | undefined {
  if (isModelVisible(skill))
    return skill.frontmatter.name === skill.name ? undefined : "name-mismatch";
  if (skill.unavailable !== undefined) return "unavailable";
  if (!skill.trusted) return "untrusted";
  if (skill.disableModelInvocation) return "operator-only";
  return "not-addressable";
}
