import type { PackageCopy } from "@skillshelf/store";
import type { InventoryCopyState } from "./types.js";

/**
 * Where an installed copy stands, first match wins: `loadable` (its resources are loaded),
 * `incompatible` (a manifest version this build does not read), `invalid` when no manifest
 * reads, `damaged` (its files differ from
 * what was installed), `invalid` (manifest, record or tree unusable), `disabled`, else `shadowed`
 * (another scope's copy counts). The one projection the inventory and lifecycle verification share.
 */
export function copyState(
  copy: Pick<PackageCopy, "loadable" | "state" | "diagnostics" | "manifest">,
): InventoryCopyState {
  if (copy.loadable) return "loadable";
  if (copy.diagnostics.some((diagnostic) => diagnostic.code === "manifest_unsupported"))
    return "incompatible";
  // without a manifest nothing in the tree can be read as a package: invalid, changed or not
  if (copy.manifest === undefined) return "invalid";
  return copy.state;
}
