import { join } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  type PackageCopyRef,
  sortDiagnostics,
} from "@skillshelf/core";
import type { PackageComponent, PackageCopy } from "./types.js";

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
 * Expand the package references in a body the package owns: `${pluginRoot}` becomes
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

/** What every loader returns, as far as expanding package references needs. */
interface LoadResult {
  readonly items: Array<{
    readonly owner?: PackageCopyRef | undefined;
    readonly path: string;
    readonly unavailable?: string | undefined;
  }>;
  readonly diagnostics: Diagnostic[];
}

/**
 * A loader's result with package-owned bodies expanded (`owner` finds the copy an item came from):
 * an item naming an unknown component stays listed, `unavailable` with the reason and its body
 * emptied (`rebuild` with `""`: never half expanded), and its `package_reference_unknown` is
 * added to the diagnostics. The same result object comes back when nothing changed.
 */
export function withPackageReferences<R extends LoadResult>(
  result: R,
  owner: (resource: { readonly owner?: PackageCopyRef | undefined }) => PackageCopy | undefined,
  body: (item: R["items"][number]) => string | undefined,
  rebuild: (item: R["items"][number], text: string) => R["items"][number],
): R {
  const diagnostics: Diagnostic[] = [];
  const items: R["items"][number][] = [];
  let changed = false;
  for (const item of result.items) {
    const copy = owner(item);
    const text = copy === undefined ? undefined : body(item);
    if (copy === undefined || text === undefined) {
      items.push(item);
      continue;
    }
    const resolved = resolvePackageReferences(text, packageOwner(copy), item.path);
    changed ||= !resolved.ok || resolved.text !== text;
    if (resolved.ok) items.push(resolved.text === text ? item : rebuild(item, resolved.text));
    else {
      items.push({ ...rebuild(item, ""), unavailable: resolved.diagnostic.message });
      diagnostics.push(resolved.diagnostic);
    }
  }
  if (!changed) return result;
  return {
    ...result,
    items,
    diagnostics: sortDiagnostics([...result.diagnostics, ...diagnostics]),
  };
}

// --- internal ---

function packageOwner(copy: PackageCopy): PackageOwner {
  return { id: copy.id, dir: copy.dir, components: copy.manifest?.components ?? [] };
}
