import type { Skill } from "./types.js";

/** True when a model may see the skill: trusted content without `disable-model-invocation: true`. */
export function isModelVisible(skill: Pick<Skill, "trusted" | "disableModelInvocation">): boolean {
  return skill.trusted && !skill.disableModelInvocation;
}

/** The skills a model may see, in the given order. Untrusted (discovery-only) skills never pass. */
export function modelVisibleSkills<T extends Pick<Skill, "trusted" | "disableModelInvocation">>(
  skills: readonly T[],
): T[] {
  return skills.filter(isModelVisible);
}
