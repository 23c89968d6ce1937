import { relative, sep } from "node:path";
import {
  type Diagnostic,
  type Environment,
  isResourceKind,
  type PackageScope,
  type ResourceKind,
} from "@skillshelf/core";
import { beginPass } from "@skillshelf/resources";
import {
  isRequirementMet,
  type PackageCopy,
  type PackageSnapshot,
  packageFolderRoots,
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
  const resources = readResources(input.environment, copy);
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

/** Every resource file of the copy's folders, foreign ones trusted: what it would offer if loaded. */
function readResources(environment: Environment, copy: PackageCopy): Inspected[] {
  const componentId = (kind: ResourceKind, path: string, name: string) => {
    const inside = relative(copy.dir, path).split(sep).join("/");
    const declared = copy.manifest?.components.find(
      (component) =>
        component.kind === kind &&
        (inside === component.path || inside.startsWith(`${component.path}/`)),
    );
    return declared === undefined || declared.id === name ? undefined : declared.id;
  };
  return beginPass(environment, { roots: packageFolderRoots(copy), trustImports: true })
    .admission()
    .resources.map(({ kind, name, path, description, availability, diagnostics }) => {
      const id = componentId(kind, path, name);
      return {
        kind,
        name,
        path,
        ...(id === undefined ? {} : { componentId: id }),
        description,
        valid:
          availability !== "invalid" && !diagnostics.some((found) => found.severity === "error"),
        diagnostics,
      };
    });
}
