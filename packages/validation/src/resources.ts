import { resolve } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  type Environment,
  explicitRoot,
  hasErrors,
  type ResourceKind,
  resolveEnvironment,
} from "@skillshelf/core";
import { beginPass, type KindPass } from "@skillshelf/resources";
import { placeholderDiagnostics } from "./_placeholder.js";
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
  const pass = explicitPass(absolute, kind, environment);
  const loaded = pass.load(kind);
  let diagnostics: Diagnostic[] = loaded.diagnostics;
  if (strict)
    diagnostics =
      kind === "skill"
        ? strictSkillDiagnostics(pass.load("skill").items, diagnostics, {
            strictKeys: options.strictKeys === true,
          })
        : diagnostics.map((diagnostic) =>
            diagnostic.severity === "warning"
              ? { ...diagnostic, severity: "error" as const }
              : diagnostic,
          );
  if (kind === "skill")
    diagnostics = [...diagnostics, ...placeholderDiagnostics(pass.load("skill").items)];
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

/** A pass reading `kind` at `path` alone, as a trusted explicit root. */
function explicitPass(path: string, kind: ResourceKind, environment: Environment): KindPass {
  return beginPass(environment, { roots: { [kind]: [explicitRoot(path)] }, trustImports: false });
}
