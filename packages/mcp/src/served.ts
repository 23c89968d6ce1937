import { isModelVisible, type Skill } from "@skillshelf/skills-loader";

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
  | "name-mismatch";

/** The skills an MCP client of `skillshelf mcp` gets, and those it does not, with why. */
export interface ServedSkills {
  /** The trusted, model-visible skills, in the order given. */
  readonly served: readonly Skill[];
  readonly withheld: readonly { readonly skill: Skill; readonly reason: WithheldReason }[];
}

/**
 * Split loaded skills into those an MCP client is served (exactly the skills a model may see,
 * trusted and model-visible, whose frontmatter `name` is their name) and those it is not, with why.
 */
export function servedSkills(skills: readonly Skill[]): ServedSkills {
  const served: Skill[] = [];
  const withheld: { skill: Skill; reason: WithheldReason }[] = [];
  for (const skill of skills) {
    const reason = withheldReason(skill);
    if (reason === undefined) served.push(skill);
    else withheld.push({ skill, reason });
  }
  return { served, withheld };
}

/** Why `skill` is not served over MCP, or `undefined` when it is. */
export function withheldReason(skill: Skill): WithheldReason | undefined {
  if (isModelVisible(skill))
    return skill.frontmatter.name === skill.name ? undefined : "name-mismatch";
  if (skill.unavailable !== undefined) return "unavailable";
  if (!skill.trusted) return "untrusted";
  if (skill.disableModelInvocation) return "operator-only";
  return "not-addressable";
}
