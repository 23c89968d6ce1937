import { posix } from "node:path";
import {
  type Code,
  createDiagnostic,
  type Diagnostic,
  identityKey,
  isResourceKind,
  normalizeRelativePath,
  type PackageKind,
  RESOURCE_FOLDERS,
  type ResourceKind,
  resourceFolder,
} from "@skillshelf/core";
import { invalidPath } from "./_paths.js";
import type { ManifestExtension } from "./_record-types.js";
import type { PackageComponent, PackageResourceFolder } from "./types.js";

/** The package-level declarations of a manifest, checked without touching the disk. */
export interface Declarations {
  readonly kind: PackageKind;
  readonly requires: readonly string[];
  readonly resources: readonly PackageResourceFolder[];
  readonly components: readonly PackageComponent[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Check `extensions.skillshelf` (absent: a plain `plugin`): resource folders are contained
 * relative paths, the skills folder is `skills` (or `.` for a skill package); components have
 * unique `kind:id`s, contained paths inside their kind's folder (a skill component names a
 * `SKILL.md`), and `requires` that name other components without a cycle; a single-resource
 * package (`skill`, `prompt`, `agent`, `fleet`) declares exactly one component of its kind and
 * only that kind's folder. A top-level `skills/` (`hasSkillsFolder`, asked only then) is
 * declared when no skills folder is.
 */
export function checkDeclarations(
  extension: ManifestExtension | undefined,
  options: { readonly manifestPath: string; readonly hasSkillsFolder: () => boolean },
): Declarations {
  const { manifestPath } = options;
  const kind = extension?.kind ?? "plugin";
  const diagnostics: Diagnostic[] = [];
  const error = (code: Code, message: string, details?: Record<string, unknown>) =>
    diagnostics.push(createDiagnostic("error", code, message, { path: manifestPath, details }));

  const resources: PackageResourceFolder[] = [];
  for (const folderKind of RESOURCE_FOLDERS) {
    const value = extension?.resources?.[folderKind];
    if (value === undefined) continue;
    const key = `extensions.skillshelf.resources.${folderKind}`;
    const path = normalizeRelativePath(value);
    if (path === undefined || (path === "." && !(folderKind === "skills" && kind === "skill"))) {
      diagnostics.push(invalidPath(manifestPath, key, value));
      continue;
    }
    if (folderKind === "skills" && path !== "skills" && path !== ".")
      error(
        "skills_root",
        `"${key}" is ${value}; skills must live in the package's top-level skills/ folder (or "." for a skill package) so every agent finds them`,
        { key, value },
      );
    resources.push({ kind: folderKind, path });
  }
  if (!resources.some((folder) => folder.kind === "skills") && options.hasSkillsFolder())
    resources.push({ kind: "skills", path: "skills" });

  const components = checkComponents(
    extension?.components ?? [],
    resources,
    error,
    manifestPath,
    diagnostics,
  );
  if (kind !== "plugin") checkSingleResource(kind, resources, components, error);
  return { kind, requires: extension?.requires ?? [], resources, components, diagnostics };
}

// --- internal ---

type Report = (code: Code, message: string, details?: Record<string, unknown>) => void;

function checkComponents(
  declared: NonNullable<ManifestExtension["components"]>,
  resources: readonly PackageResourceFolder[],
  error: Report,
  manifestPath: string,
  diagnostics: Diagnostic[],
): PackageComponent[] {
  const components: PackageComponent[] = [];
  const seen = new Set<string>();
  declared.forEach((entry, index) => {
    const key = `extensions.skillshelf.components[${index}]`;
    const ref = identityKey(entry.kind, entry.id);
    if (seen.has(ref))
      error("component_duplicate", `${key} repeats component ${ref}`, { key, ref });
    seen.add(ref);
    const path = normalizeRelativePath(entry.path);
    if (path === undefined || path === ".") {
      diagnostics.push(invalidPath(manifestPath, `${key}.path`, entry.path));
      return;
    }
    const folderKind = isResourceKind(entry.kind) ? resourceFolder(entry.kind) : undefined;
    if (folderKind !== undefined) {
      const folder = resources.find((resource) => resource.kind === folderKind);
      if (folder === undefined || !insideFolder(folder.path, path))
        error(
          "component_outside_root",
          `${key} (${ref}) is at ${path}, outside the package's ${folderKind} folder; loaders would never find it`,
          { key, ref, path },
        );
    }
    if (entry.kind === "skill" && posix.basename(path) !== "SKILL.md")
      error("component_not_skill_file", `${key} (${ref}) must name a SKILL.md file, not ${path}`, {
        key,
        ref,
        path,
      });
    const requires = entry.requires ?? [];
    if (new Set(requires).size !== requires.length)
      error("component_requires_duplicate", `${key} (${ref}) lists a requirement twice`, {
        key,
        ref,
      });
    components.push({ kind: entry.kind, id: entry.id, path, requires });
  });
  checkComponentRequires(components, error);
  return components;
}

function insideFolder(folder: string, path: string): boolean {
  return folder === "." || path.startsWith(`${folder}/`);
}

function checkComponentRequires(components: readonly PackageComponent[], error: Report): void {
  const byRef = new Map(
    components.map((component) => [identityKey(component.kind, component.id), component]),
  );
  for (const [ref, component] of byRef)
    for (const needed of component.requires)
      if (!byRef.has(needed))
        error(
          "component_requires_unknown",
          `component ${ref} requires ${needed}, which the manifest does not declare`,
          { ref, requires: needed },
        );
  const state = new Map<string, "visiting" | "done">();
  const visit = (ref: string, trail: readonly string[]): void => {
    if (state.get(ref) === "done") return;
    if (state.get(ref) === "visiting") {
      const cycle = [...trail.slice(trail.indexOf(ref)), ref];
      error("component_cycle", `components require each other in a cycle: ${cycle.join(" -> ")}`, {
        cycle,
      });
      return;
    }
    state.set(ref, "visiting");
    for (const needed of byRef.get(ref)?.requires ?? [])
      if (byRef.has(needed)) visit(needed, [...trail, ref]);
    state.set(ref, "done");
  };
  for (const ref of byRef.keys()) visit(ref, []);
}

function checkSingleResource(
  kind: ResourceKind,
  resources: readonly PackageResourceFolder[],
  components: readonly PackageComponent[],
  error: Report,
): void {
  const own = components.filter((component) => component.kind === kind);
  if (own.length !== 1)
    error(
      "package_shape",
      `a ${kind} package declares exactly one ${kind} component; this one declares ${own.length}`,
      { kind, count: own.length },
    );
  const folder = resourceFolder(kind);
  const others = resources
    .filter((resource) => resource.kind !== folder)
    .map((resource) => resource.kind);
  if (others.length > 0)
    error(
      "package_shape",
      `a ${kind} package declares only its ${folder} folder; remove ${others.join(", ")} or make it a plugin`,
      { kind, folders: others },
    );
}
