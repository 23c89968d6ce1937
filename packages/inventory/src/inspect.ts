import { relative, sep } from "node:path";
import {
  type Diagnostic,
  type Environment,
  isResourceKind,
  RESOURCE_KINDS,
  type ResourceKind,
  type ResourceRoot,
} from "@skillshelf/core";
import { loadPromptTemplates } from "@skillshelf/prompts-loader";
import { loadAgentRecipes, loadFleetContracts } from "@skillshelf/recipes-loader";
import { loadSkills } from "@skillshelf/skills-loader";
import {
  isRequirementMet,
  type PackageCopy,
  type PackageScope,
  type PackageSnapshot,
  packageCopyRoots,
  readPackageSnapshot,
} from "@skillshelf/store";
import { copyRow } from "./inventory.js";
import { effectiveLimits } from "./limits.js";
import type { InventoryCopy } from "./types.js";

/** One copy read deeply: every resource file in it, valid or not, and what it needs. */
export interface CopyInspection {
  readonly copy: InventoryCopy;
  readonly resources: readonly {
    readonly kind: ResourceKind;
    readonly name: string;
    readonly path: string;
    /** The id the manifest declares it under, when that differs from its runtime name. */
    readonly componentId?: string | undefined;
    readonly description: string;
    readonly valid: boolean;
    readonly diagnostics: readonly Diagnostic[];
  }[];
  /** Declared components that are not resources (scripts, other files, tools). */
  readonly components: readonly {
    readonly kind: string;
    readonly id: string;
    readonly path: string;
  }[];
  readonly requires: readonly { readonly ref: string; readonly met: boolean }[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Read one installed copy deeply, whatever its state (disabled, shadowed and damaged copies too):
 * the copy's row, every resource its folders hold with the loaders' verdict, its other
 * components, and each requirement with whether a loadable copy meets it. Without `scope`, the
 * copy that counts (else the project copy, else the user copy). `undefined` when no copy of `id`
 * exists.
 */
export function inspectCopy(input: {
  readonly environment: Environment;
  readonly id: string;
  readonly scope?: PackageScope | undefined;
  readonly snapshot?: PackageSnapshot | undefined;
}): CopyInspection | undefined {
  const snapshot = input.snapshot ?? readPackageSnapshot(input.environment);
  const copies = snapshot.copies.filter((copy) => copy.id === input.id);
  const copy =
    input.scope !== undefined
      ? copies.find((candidate) => candidate.scope === input.scope)
      : (copies.find((candidate) => candidate.effective) ?? copies.at(-1));
  if (copy === undefined) return undefined;
  const resources = RESOURCE_KINDS.flatMap((kind) => readKind(input.environment, copy, kind));
  return {
    copy: copyRow(copy, effectiveLimits(undefined)),
    resources,
    components: (copy.manifest?.components ?? [])
      .filter((component) => !isResourceKind(component.kind))
      .map(({ kind, id, path }) => ({ kind, id, path })),
    requires: (copy.manifest?.requires ?? []).map((ref) => ({
      ref,
      met: isRequirementMet(snapshot, ref),
    })),
    diagnostics: copy.diagnostics,
  };
}

// --- internal ---

type Inspected = CopyInspection["resources"][number];

function readKind(environment: Environment, copy: PackageCopy, kind: ResourceKind): Inspected[] {
  const roots: ResourceRoot[] = packageCopyRoots(copy, kind).map((root) => ({
    ...root,
    trust: "trusted",
  }));
  if (roots.length === 0) return [];
  const input = { ...environment, roots };
  const loaded =
    kind === "skill"
      ? loadSkills(input)
      : kind === "prompt"
        ? loadPromptTemplates(input)
        : kind === "agent"
          ? loadAgentRecipes(input)
          : loadFleetContracts(input);
  const items: { name: string; path: string; description?: string | undefined }[] = [
    ...loaded.items,
    ...loaded.collisions.flatMap((group) => group.losers.map((loss) => loss.item)),
  ];
  const findings = (path: string) => loaded.diagnostics.filter((d) => d.path === path);
  const componentId = (path: string, name: string) => {
    const inside = relative(copy.dir, path).split(sep).join("/");
    const declared = copy.manifest?.components.find(
      (component) =>
        component.kind === kind &&
        (inside === component.path || inside.startsWith(`${component.path}/`)),
    );
    return declared === undefined || declared.id === name ? undefined : declared.id;
  };
  const rows: Inspected[] = items.map((item) => {
    const id = componentId(item.path, item.name);
    return {
      kind,
      name: item.name,
      path: item.path,
      ...(id === undefined ? {} : { componentId: id }),
      description: item.description ?? "",
      valid: !findings(item.path).some((d) => d.severity === "error"),
      diagnostics: findings(item.path),
    };
  });
  const seen = new Set(rows.map((row) => row.path));
  for (const diagnostic of loaded.diagnostics)
    if (
      diagnostic.severity === "error" &&
      diagnostic.path?.endsWith(".md") === true &&
      !seen.has(diagnostic.path)
    ) {
      seen.add(diagnostic.path);
      rows.push({
        kind,
        name: diagnostic.path.split(sep).at(-2) ?? diagnostic.path,
        path: diagnostic.path,
        description: "",
        valid: false,
        diagnostics: findings(diagnostic.path),
      });
    }
  return rows;
}
