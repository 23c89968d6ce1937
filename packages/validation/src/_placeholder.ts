import { createDiagnostic, type Diagnostic } from "@skillshelf/core";
import { skillPlaceholder } from "@skillshelf/resources";
import type { Skill } from "@skillshelf/skills-loader";

/**
 * A warning for each skill whose description is still the placeholder `skillshelf new` wrote: the
 * skill is valid, but a model choosing skills by their descriptions learns nothing from it.
 */
export function placeholderDiagnostics(skills: readonly Skill[]): Diagnostic[] {
  return skills
    .filter((skill) => skill.description === skillPlaceholder(skill.name))
    .map((skill) =>
      createDiagnostic(
        "warning",
        "description_placeholder",
        `the description of ${skill.name} is still the placeholder skillshelf new wrote`,
        { path: skill.path, details: { name: skill.name } },
      ),
    );
}
