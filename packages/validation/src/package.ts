import { resolve } from "node:path";
import { resolveEnvironment } from "@skillshelf/core";
import { readPackageManifest } from "@skillshelf/store";
import {
  checkAgents,
  checkComponents,
  checkFleets,
  checkPrompts,
  checkSkills,
  type PackageContext,
} from "./_package-resources.js";
import { result } from "./_results.js";
import type { PackageValidation, ValidateOptions } from "./types.js";

/**
 * Validate a package folder, read-only (resources-spec §7.1 on our formats): the manifest (ours or
 * a Claude Code plugin's); then, only when it is valid, its skills through `skills-loader` (a
 * sound catalog, strict rules in strict mode), prompt templates (each must be able to run), agent
 * recipes (bound skills provided by the package), fleet contracts (their prerequisites listed),
 * and declared components (each loaded from its path). Resources carry package-relative paths.
 */
export function validatePackage(dir: string, options: ValidateOptions = {}): PackageValidation {
  const environment = resolveEnvironment({ env: {}, ...options.environment });
  const root = resolve(environment.cwd, dir);
  const read = readPackageManifest(root);
  const manifest = read.manifest;
  if (manifest === undefined)
    return {
      ...result(read.diagnostics, { resources: [], prerequisites: [] }),
      manifestValid: false,
      manifest: undefined,
    };
  const context: PackageContext = {
    root,
    manifest,
    environment,
    mode: options.mode ?? "lenient",
    strictKeys: options.strictKeys === true,
    diagnostics: [...read.diagnostics],
    resources: [],
  };
  const skills = checkSkills(context);
  checkPrompts(context);
  const agents = checkAgents(context, skills);
  const prerequisites = checkFleets(context, agents);
  checkComponents(context);
  return {
    ...result(context.diagnostics, { resources: context.resources, prerequisites }),
    manifestValid: true,
    manifest,
  };
}
