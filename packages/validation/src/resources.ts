import { resolve } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  hasErrors,
  type ResourceKind,
  type ResourceRoot,
  ROOT_PRECEDENCE,
  resolveEnvironment,
} from "@skillshelf/core";
import { loadPromptTemplates } from "@skillshelf/prompts-loader";
import { loadAgentRecipes, loadFleetContracts } from "@skillshelf/recipes-loader";
import { loadSkills } from "@skillshelf/skills-loader";
import { resourceOf, result } from "./_results.js";
import { strictSkillDiagnostics } from "./strict.js";
import type { ValidateOptions, ValidationResult } from "./types.js";

/**
 * Validate the resources of one kind at `path` (a file, a resource folder or a folder of them),
 * as named by the user. Lenient mode loads them as an agent would; strict mode applies the Agent
 * Skills specification to skills (see `validateSkill`) and makes every warning an error for the
 * other kinds. Nothing found at the path is `path_missing`.
 */
export function validateResources(
  path: string,
  kind: ResourceKind,
  options: ValidateOptions = {},
): ValidationResult {
  const environment = resolveEnvironment({ env: {}, ...options.environment });
  const absolute = resolve(environment.cwd, path);
  const strict = options.mode === "strict";
  const loaded = loadKind(absolute, kind, environment);
  let diagnostics: Diagnostic[] = loaded.diagnostics;
  if (strict)
    diagnostics =
      kind === "skill"
        ? strictSkillDiagnostics(loaded.skills, diagnostics, {
            strictKeys: options.strictKeys === true,
          })
        : diagnostics.map((diagnostic) =>
            diagnostic.severity === "warning"
              ? { ...diagnostic, severity: "error" as const }
              : diagnostic,
          );
  // one name, one skill: a folder of skills is a catalog, whether or not a package holds it
  const clashes = diagnostics.filter((diagnostic) => diagnostic.code === "collision");
  if (kind === "skill" && clashes.length > 0)
    diagnostics = [
      ...diagnostics,
      createDiagnostic(
        "error",
        "skill_catalog_invalid",
        `skills at ${absolute} share a name (${[...new Set(clashes.map((clash) => String(clash.details?.name)))].join(", ")}); one name is one skill`,
        { path: absolute, details: { reason: "collision" } },
      ),
    ];
  if (loaded.items.length === 0 && !hasErrors(diagnostics))
    diagnostics = [
      ...diagnostics,
      createDiagnostic("error", "path_missing", `no ${kind} at ${absolute}`, { path: absolute }),
    ];
  return result(diagnostics, {
    resources: loaded.items.map((item) => resourceOf(item, kind, diagnostics)),
    prerequisites: [],
  });
}

/** Validate skills at a path: `validateResources(path, "skill", options)`. */
export function validateSkill(path: string, options: ValidateOptions = {}): ValidationResult {
  return validateResources(path, "skill", options);
}

// --- internal ---

function loadKind(
  path: string,
  kind: ResourceKind,
  environment: ReturnType<typeof resolveEnvironment>,
) {
  if (kind === "skill") {
    const loaded = loadSkills({
      ...environment,
      disableDiscovery: true,
      explicitSkillPaths: [path],
    });
    return { items: loaded.items, diagnostics: loaded.diagnostics, skills: loaded.items };
  }
  const root: ResourceRoot = {
    path,
    scope: "cli",
    source: "path",
    origin: "explicit",
    precedence: ROOT_PRECEDENCE.explicit,
    trust: "trusted",
  };
  const input = { ...environment, roots: [root] };
  const loaded =
    kind === "prompt"
      ? loadPromptTemplates(input)
      : kind === "agent"
        ? loadAgentRecipes(input)
        : loadFleetContracts(input);
  return {
    items: loaded.items as readonly { name: string; path: string; description?: string }[],
    diagnostics: loaded.diagnostics,
    skills: [],
  };
}
