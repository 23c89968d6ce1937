import type { Skill } from "./types.js";

/** What model visibility is decided on. */
export type VisibilityFacts = Pick<Skill, "trusted" | "disableModelInvocation"> &
  Partial<Pick<Skill, "addressable" | "unavailable">>;

/**
 * True when a model may see the skill: trusted content, without `disable-model-invocation: true`,
 * whose name `/skill <name>` can address (absent `addressable` counts as addressable), and not
 * `unavailable`.
 */
export function isModelVisible(skill: VisibilityFacts): boolean {
  return (
    skill.trusted &&
    !skill.disableModelInvocation &&
    skill.addressable !== false &&
    skill.unavailable === undefined
  );
}

/** The skills a model may see, in the given order. Untrusted (discovery-only) skills never pass. */
export function modelVisibleSkills<T extends VisibilityFacts>(skills: readonly T[]): T[] {
  return skills.filter(isModelVisible);
}
