import {
  type Diagnostic,
  type Environment,
  type ResourceKind,
  type ResourceRoot,
  sortDiagnostics,
} from "@skillshelf/core";
import { defaultPromptRoots, loadPromptTemplates } from "@skillshelf/prompts-loader";
import {
  defaultFleetRoots,
  defaultRecipeRoots,
  loadAgentRecipes,
  loadFleetContracts,
} from "@skillshelf/recipes-loader";
import { defaultSkillRoots, loadSkills, type SkillCache } from "@skillshelf/skills-loader";
import {
  linkedCopies,
  loadableOwner,
  PACKAGE_SCOPES,
  type PackageSnapshot,
  readPackageSnapshot,
  snapshotRoots,
  withPackageReferences,
} from "@skillshelf/store";
import type { ReadPass } from "./types.js";

/** What a pass is made with: the resources object's settings. */
export interface PassSettings {
  readonly trustImports: boolean;
  /** Reuse skills read before (a `resources` instance's cache); none for a one-off pass. */
  readonly cache?: SkillCache | undefined;
  readonly toolNames: readonly string[] | undefined;
  /** Keep every skill's body, not only package-owned ones. */
  readonly bodies?: boolean | undefined;
}

/**
 * Begin a read pass: one package snapshot (each installed tree digested once), the loader roots
 * built from it with store's `snapshotRoots`, and each kind loaded at most once, on first ask.
 */
export function beginPass(
  environment: Environment,
  settings: PassSettings,
  snapshot: PackageSnapshot = readPackageSnapshot(environment),
): ReadPass {
  const roots = (kind: ResourceKind, defaults: ResourceRoot[]) => [
    ...snapshotRoots(snapshot, kind),
    ...defaults,
  ];
  const owner = loadableOwner(snapshot);
  const common = { ...environment, trustImports: settings.trustImports };
  const skills = once(() =>
    withPackageReferences(
      loadSkills({
        ...common,
        roots: roots("skill", defaultSkillRoots(environment)),
        copiesOf: new Map(PACKAGE_SCOPES.flatMap((scope) => linkedCopies(environment, scope))),
        cache: settings.cache,
        toolNames: settings.toolNames,
        // package-owned bodies are read now so their references are checked before listing
        includeBody: settings.bodies === true || ((root) => root.scope === "package"),
      }),
      owner,
      (skill) => skill.body,
      (skill, body) => ({ ...skill, body }),
    ),
  );
  const prompts = once(() =>
    withPackageReferences(
      loadPromptTemplates({ ...common, roots: roots("prompt", defaultPromptRoots(environment)) }),
      owner,
      (template) => template.content,
      (template, content) => ({ ...template, content }),
    ),
  );
  const agents = once(() =>
    withPackageReferences(
      loadAgentRecipes({
        ...common,
        roots: roots("agent", defaultRecipeRoots(environment)),
        skillNames: skills().items.map((skill) => skill.name),
      }),
      owner,
      (recipe) => recipe.persona,
      (recipe, persona) => ({ ...recipe, persona }),
    ),
  );
  const fleets = once(() =>
    loadFleetContracts({ ...common, roots: roots("fleet", defaultFleetRoots(environment)) }),
  );
  const defaults: { readonly [K in ResourceKind]: () => ResourceRoot[] } = {
    skill: () => defaultSkillRoots(environment),
    prompt: () => defaultPromptRoots(environment),
    agent: () => defaultRecipeRoots(environment),
    fleet: () => defaultFleetRoots(environment),
  };
  return {
    environment,
    snapshot,
    diagnostics: snapshotDiagnostics(snapshot),
    roots: (kind) => roots(kind, defaults[kind]()),
    skills,
    prompts,
    agents,
    fleets,
    owner,
  };
}

// --- internal ---

function once<T>(compute: () => T): () => T {
  let value: { readonly result: T } | undefined;
  return () => {
    value ??= { result: compute() };
    return value.result;
  };
}

/** What the snapshot found wrong: scope-level findings and those of copies that are loaded or broken (a disabled or shadowed copy is the user's choice). */
function snapshotDiagnostics(snapshot: PackageSnapshot): Diagnostic[] {
  return sortDiagnostics([
    ...snapshot.diagnostics,
    ...snapshot.copies
      .filter((copy) => copy.state !== "disabled" && copy.state !== "shadowed")
      .flatMap((copy) => copy.diagnostics),
  ]);
}
