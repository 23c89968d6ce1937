import type { Diagnostic } from "@skillshelf/core";

/** Why a set of loaded skills is not a sound catalog, checked in this order. */
export type CatalogInvalidReason = "load-error" | "collision" | "unloadable-file" | "no-skills";

/**
 * Whether a skill load is a sound catalog: not if any diagnostic is an error
 * (`load-error`), any is a `collision`, any warning is about a file that produced no skill
 * (`unloadable-file`), or nothing loaded (`no-skills`). Benign warnings on a loaded skill pass.
 */
export function skillCatalogValidity(load: {
  readonly items: readonly { readonly path: string }[];
  readonly diagnostics: readonly Diagnostic[];
}): { readonly ok: true } | { readonly ok: false; readonly reason: CatalogInvalidReason } {
  const { items, diagnostics } = load;
  if (diagnostics.some((diagnostic) => diagnostic.severity === "error"))
    return { ok: false, reason: "load-error" };
  if (diagnostics.some((diagnostic) => diagnostic.code === "collision"))
    return { ok: false, reason: "collision" };
  const loaded = new Set(items.map((item) => item.path));
  if (
    diagnostics.some(
      (diagnostic) =>
        diagnostic.severity === "warning" &&
        (diagnostic.path === undefined || !loaded.has(diagnostic.path)),
    )
  )
    return { ok: false, reason: "unloadable-file" };
  if (items.length === 0) return { ok: false, reason: "no-skills" };
  return { ok: true };
}
