import { relative, sep } from "node:path";
import {
  type Code,
  createDiagnostic,
  type Diagnostic,
  type Environment,
  identityKey,
  isResourceKind,
  type ResourceKind,
  resourceFolder,
} from "@skillshelf/core";
import { type FleetPrerequisite, fleetPrerequisites } from "@skillshelf/recipes-loader";
import { KINDS, type KindItem, type KindPass } from "@skillshelf/resources";
import { type PackageManifest, resolvePackageReferences } from "@skillshelf/store";
import { placeholderDiagnostics } from "./_placeholder.js";
import { resourceOf } from "./_results.js";
import { skillCatalogValidity } from "./catalog-validity.js";
import { strictSkillDiagnostics } from "./strict.js";
import type { ValidatedResource, ValidationMode } from "./types.js";

/** What the package checks share: the package, and the findings and resources gathered so far. */
export interface PackageContext {
  readonly root: string;
  readonly manifest: PackageManifest;
  readonly environment: Environment;
  /** The package's folders read alone, foreign resources trusted: trust does not matter to validity. */
  readonly pass: KindPass;
  readonly mode: ValidationMode;
  readonly strictKeys: boolean;
  readonly diagnostics: Diagnostic[];
  readonly resources: ValidatedResource[];
}

/** Load the package's skills folders; returns the names of the skills that loaded. */
export function checkSkills(context: PackageContext): Set<string> {
  if (context.pass.roots("skill").length === 0) return new Set();
  const load = context.pass.load("skill");
  const verdict = skillCatalogValidity(load);
  const diagnostics = [
    ...(context.mode === "strict"
      ? strictSkillDiagnostics(load.items, load.diagnostics, { strictKeys: context.strictKeys })
      : load.diagnostics),
    ...unknownReferences(context, "skill", load.items),
    ...placeholderDiagnostics(load.items),
  ];
  context.diagnostics.push(...diagnostics);
  if (!verdict.ok)
    error(
      context,
      "skill_catalog_invalid",
      `the package's skills are not a sound catalog (${verdict.reason})`,
      { reason: verdict.reason },
    );
  addResources(context, "skill", load.items, diagnostics);
  return new Set(load.items.map((skill) => skill.name));
}

/** Load the package's prompt templates; a template that cannot run is an error. */
export function checkPrompts(context: PackageContext): void {
  if (context.pass.roots("prompt").length === 0) return;
  const load = context.pass.load("prompt");
  context.diagnostics.push(
    ...load.diagnostics,
    ...unknownReferences(context, "prompt", load.items),
  );
  for (const template of load.items)
    if (template.unavailable !== undefined)
      context.diagnostics.push(
        createDiagnostic(
          "error",
          "prompt_unavailable",
          `prompt template /${template.name} cannot run: ${template.unavailable}`,
          { path: template.path },
        ),
      );
  addResources(context, "prompt", load.items, context.diagnostics);
}

/** Load the package's agent recipes and check their bound skills; returns the agents' names. */
export function checkAgents(context: PackageContext, skills: ReadonlySet<string>): Set<string> {
  if (context.pass.roots("agent").length === 0) return new Set();
  const load = context.pass.load("agent");
  context.diagnostics.push(...load.diagnostics, ...unknownReferences(context, "agent", load.items));
  const hasSkills = context.manifest.resources.some((folder) => folder.kind === "skills");
  for (const recipe of load.items) {
    if (recipe.skills.length === 0) continue;
    const bound = (code: Code, message: string) =>
      context.diagnostics.push(
        createDiagnostic("error", code, message, {
          path: recipe.path,
          details: { agent: recipe.name },
        }),
      );
    if (context.manifest.kind === "agent")
      bound(
        "package_shape",
        `agent ${recipe.name} binds skills, but an agent package holds only its agent; make the package a plugin`,
      );
    else if (!hasSkills)
      bound(
        "bound_skill_unavailable",
        `agent ${recipe.name} binds skills, but the package has no skills folder`,
      );
    else
      for (const skill of recipe.skills)
        if (!skills.has(skill))
          bound(
            "bound_skill_unavailable",
            `agent ${recipe.name} binds skill ${skill}, which the package does not provide`,
          );
  }
  addResources(context, "agent", load.items, context.diagnostics);
  return new Set(load.items.map((recipe) => recipe.name));
}

/** Load the package's fleet contracts; returns what they need that the package does not define. */
export function checkFleets(
  context: PackageContext,
  agents: ReadonlySet<string>,
): FleetPrerequisite[] {
  if (context.pass.roots("fleet").length === 0) return [];
  const load = context.pass.load("fleet");
  context.diagnostics.push(...load.diagnostics);
  addResources(context, "fleet", load.items, context.diagnostics);
  const merged = new Map<string, FleetPrerequisite>();
  for (const fleet of load.items)
    for (const need of fleetPrerequisites(fleet, { agents })) {
      const key = `${need.type}:${need.identifier}`;
      const seen = merged.get(key);
      merged.set(
        key,
        seen === undefined
          ? need
          : { ...seen, steps: [...new Set([...seen.steps, ...need.steps])] },
      );
    }
  return [...merged.values()];
}

/**
 * Every declared recipe component must be a resource that loaded from its path (not nested below
 * its folder, where loaders do not look for agents and fleets), and a single-resource package
 * must hold exactly one resource of its kind.
 */
export function checkComponents(context: PackageContext): void {
  for (const component of context.manifest.components) {
    const kind = component.kind;
    if (!isResourceKind(kind)) continue;
    const ref = identityKey(component.kind, component.id);
    const index = context.resources.findIndex(
      (resource) => resource.kind === kind && resource.path === component.path,
    );
    const folder = context.manifest.resources.find(
      (candidate) => candidate.kind === resourceFolder(kind),
    );
    const depth =
      folder === undefined
        ? 0
        : component.path.slice(folder.path === "." ? 0 : folder.path.length + 1).split("/").length;
    if (!KINDS[kind].nests && depth > 1)
      error(
        context,
        "component_nested",
        `component ${ref} at ${component.path} is nested below the ${kind}s folder, where loaders do not look`,
        { ref },
      );
    else if (index === -1)
      error(
        context,
        "component_not_loaded",
        `component ${ref} declared in the manifest was not loaded from ${component.path}`,
        { ref, path: component.path },
      );
    else
      context.resources[index] = {
        ...(context.resources[index] as ValidatedResource),
        componentRef: ref,
      };
  }
  const { kind } = context.manifest;
  if (kind !== "plugin") {
    const count = context.resources.filter((resource) => resource.kind === kind).length;
    if (count !== 1)
      error(
        context,
        "package_shape",
        `a ${kind} package must expose exactly one ${kind}; ${count} loaded`,
        { kind, count },
      );
  }
}

// --- internal ---

function addResources(
  context: PackageContext,
  kind: ResourceKind,
  items: readonly { name: string; path: string; description?: string }[],
  diagnostics: readonly Diagnostic[],
): void {
  for (const item of items)
    context.resources.push(
      resourceOf(item, kind, diagnostics, relative(context.root, item.path).split(sep).join("/")),
    );
}

/**
 * `package_reference_unknown` on each resource whose body names a component the manifest does
 * not declare (`${component:kind:id}`): installed, it would be unavailable.
 */
function unknownReferences<K extends ResourceKind>(
  context: PackageContext,
  kind: K,
  items: readonly KindItem<K>[],
): Diagnostic[] {
  const body = KINDS[kind].body;
  if (body === undefined) return [];
  const owner = {
    id: context.manifest.id,
    dir: context.root,
    components: context.manifest.components,
  };
  return items.flatMap((item) => {
    const text = body.of(item);
    const resolved =
      text === undefined ? undefined : resolvePackageReferences(text, owner, item.path);
    return resolved === undefined || resolved.ok ? [] : [resolved.diagnostic];
  });
}

function error(
  context: PackageContext,
  code: Code,
  message: string,
  details: Record<string, unknown>,
): void {
  context.diagnostics.push(
    createDiagnostic("error", code, message, { path: context.manifest.manifestPath, details }),
  );
}
