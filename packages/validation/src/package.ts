import { resolve } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  digestTree,
  isSkillshelfError,
  resolveEnvironment,
} from "@skillshelf/core";
import { beginPass } from "@skillshelf/resources";
import { packageFolderRoots, readPackageManifest } from "@skillshelf/store";
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
 * Validate a package folder, read-only: the manifest (ours or
 * a Claude Code plugin's); then, only when it is valid, its skills through `skills-loader` (a
 * sound catalog, strict rules in strict mode), prompt templates (each must be able to run), agent
 * recipes (bound skills provided by the package), fleet contracts (their prerequisites listed),
 * and declared components (each loaded from its path). The tree must be one `store` can install:
 * its links stay inside it at every step, as the kernel resolves them (`tree_link_escape`), and
 * it holds no FIFO, device or socket (`tree_special_file`). Resources carry package-relative paths.
 */
export function validatePackage(dir: string, options: ValidateOptions = {}): PackageValidation {
  const environment = resolveEnvironment({ env: {}, ...options.environment });
  const root = resolve(environment.cwd, dir);
  const tree = options.treeDigested === true ? [] : treeProblem(root);
  const read =
    options.manifest === undefined
      ? readPackageManifest(root)
      : { ok: true as const, value: options.manifest, diagnostics: [] };
  const manifest = read.ok ? read.value : undefined;
  if (manifest === undefined)
    return {
      ...result([...tree, ...read.diagnostics], { resources: [], prerequisites: [] }),
      manifestValid: false,
      manifest: undefined,
    };
  const context: PackageContext = {
    root,
    manifest,
    environment,
    pass: beginPass(environment, {
      roots: packageFolderRoots({ id: manifest.id, dir: root, manifest, record: undefined }),
      trustImports: true,
      bodies: true,
      cache: options.skillCache,
    }),
    mode: options.mode ?? "lenient",
    strictKeys: options.strictKeys === true,
    diagnostics: [...tree, ...read.diagnostics],
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

// --- internal ---

/** Why the tree could not be installed as it is: the tree digest's refusal, as a diagnostic. */
function treeProblem(root: string): Diagnostic[] {
  try {
    digestTree(root);
    return [];
  } catch (error) {
    if (!isSkillshelfError(error)) throw error;
    // the manifest reader reports a folder that is missing or not a folder
    if (error.code === "tree_missing" || error.code === "tree_not_directory") return [];
    return [createDiagnostic("error", error.code, error.message, { path: error.path ?? root })];
  }
}
