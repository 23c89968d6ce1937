import { join } from "node:path";
import type { Diagnostic } from "@skillshelf/core";
import { readCollection } from "@skillshelf/sources";
import { result } from "./_results.js";
import { validateResources } from "./resources.js";
import type { ValidateOptions, ValidationResult } from "./types.js";

/**
 * Validate a folder with no manifest as `install` reads it (a collection): each skill, prompt
 * template and agent recipe `readCollection` finds, hidden agent folders too, with why it left
 * any out; a skill left out for what its `SKILL.md` says is validated too, so its errors say what
 * to fix. Two skills of one name are an error (`collection_duplicate`): install would take only
 * the first. `undefined` when the folder holds none, for it to be read as a folder of skills.
 */
export function validateCollection(
  path: string,
  options: ValidateOptions = {},
): ValidationResult | undefined {
  const collection = readCollection(path);
  const checks = [
    ...[
      ...collection.skills,
      ...collection.refused.filter((skill) => skill.code === "collection_skill_invalid"),
    ].map((skill) => validateResources(join(path, skill.path), "skill", options)),
    ...collection.resources.map((item) =>
      validateResources(join(path, item.path), item.kind, options),
    ),
  ];
  if (checks.length === 0) return undefined;
  return result(
    [
      ...collection.diagnostics.map(oneNameOneSkill),
      ...checks.flatMap((check) => check.diagnostics),
    ],
    {
      resources: checks.flatMap((check) => check.resources),
      prerequisites: checks.flatMap((check) => check.prerequisites),
    },
  );
}

// --- internal ---

// install leaves a second skill of a name out with a warning; a folder offered for sharing is wrong
function oneNameOneSkill(diagnostic: Diagnostic): Diagnostic {
  return diagnostic.code === "collection_duplicate"
    ? { ...diagnostic, severity: "error" }
    : diagnostic;
}
