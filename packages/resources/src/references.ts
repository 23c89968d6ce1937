import { join } from "node:path";
import { createDiagnostic, type Diagnostic } from "@skillshelf/core";
import type { PackageComponent } from "@skillshelf/store";

/** The package a body belongs to: its folder and the components its manifest declares. */
export interface PackageOwner {
  readonly id: string;
  /** The copy's folder: what `${pluginRoot}` becomes. */
  readonly dir: string;
  readonly components: readonly PackageComponent[];
}

/** A package-owned body with its references expanded, or why it cannot be. */
export type ResolvedReferences =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly diagnostic: Diagnostic };

// ${pluginRoot} and ${component:<kind>:<id>}: nothing else of the ${…} forms templates use
const REFERENCE = /\$\{(pluginRoot|component:([a-z]+):([a-z0-9][a-z0-9._-]*))\}/g;

/**
 * Expand the package references in a body the package owns (DESIGN §12): `${pluginRoot}` becomes
 * the copy's folder and `${component:kind:id}` the path of that declared component. A reference
 * to a component the package does not declare refuses the whole body with
 * `package_reference_unknown` (on `path`): never a half-expanded text. Text without references
 * comes back as it is.
 *
 * @example
 * resolvePackageReferences("Run ${component:script:lint}", owner) // { ok: true, text: "Run /…/tools/lint.sh" }
 */
export function resolvePackageReferences(
  text: string,
  owner: PackageOwner,
  path?: string,
): ResolvedReferences {
  if (!text.includes("${")) return { ok: true, text };
  let unknown: string | undefined;
  const expanded = text.replace(REFERENCE, (whole, _reference, kind?: string, id?: string) => {
    if (kind === undefined || id === undefined) return owner.dir;
    const component = owner.components.find((entry) => entry.kind === kind && entry.id === id);
    if (component !== undefined) return join(owner.dir, component.path);
    unknown ??= whole;
    return whole;
  });
  if (unknown === undefined) return { ok: true, text: expanded };
  return {
    ok: false,
    diagnostic: createDiagnostic(
      "error",
      "package_reference_unknown",
      `${unknown} names a component package ${owner.id} does not declare`,
      {
        ...(path === undefined ? {} : { path }),
        details: { reference: unknown, package: owner.id },
      },
    ),
  };
}
