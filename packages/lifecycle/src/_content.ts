import { relative, sep } from "node:path";
import type { Environment } from "@skillshelf/core";
import type { SkillCache } from "@skillshelf/skills-loader";
import type { PackageManifest } from "@skillshelf/store";
import { validatePackage } from "@skillshelf/validation";
import { refusal } from "./_refusal.js";
import type { Refusal } from "./types.js";

/**
 * Why a staged package cannot be installed as it is: the errors package validation finds in it
 * (lenient, as agents load it) — a skill that does not load, two skills of one name, a template
 * that cannot run, a reference to a component the manifest does not declare. Every install,
 * update and forced replacement is checked the same; `undefined` when it is sound. Its skills
 * are read through `skillCache` (the plan's, which read a collection's skills where they are).
 */
export function contentRefusal(
  environment: Environment,
  dir: string,
  manifest: PackageManifest,
  skillCache?: SkillCache,
): Refusal | undefined {
  // the staged tree was digested and its manifest read: neither is done again
  const validation = validatePackage(dir, {
    environment: { home: environment.home, cwd: environment.cwd, project: environment.project },
    treeDigested: true,
    manifest,
    skillCache,
  });
  if (validation.valid) return undefined;
  const errors = validation.diagnostics.filter((diagnostic) => diagnostic.severity === "error");
  return refusal(
    "package_invalid",
    `the package does not load as its manifest says: ${errors.length === 1 ? "one error" : `${errors.length} errors`}`,
    {
      diagnostics: errors.map((error) => ({
        code: error.code,
        message: error.message,
        ...(error.path === undefined
          ? {}
          : { path: relative(dir, error.path).split(sep).join("/") }),
      })),
    },
  );
}
