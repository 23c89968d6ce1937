import { identityKey, parseRequirementRef } from "@skillshelf/core";
import type { IndexRow } from "./types.js";

/** How a ref stands among installed copies: `loadable`, installed but not loadable, or absent. */
export type InstalledStatus = "loadable" | "not_loadable" | undefined;

/** The requirement closure of some refs over the merged index rows. */
export interface RequirementResolution {
  /** Rows to install, dependencies before their dependents; requested rows included. */
  readonly order: readonly IndexRow[];
  /** Refs already met by a loadable installed copy (not expanded further). */
  readonly satisfied: readonly string[];
  /** Refs found in no index and not installed, with the ref that needed each. */
  readonly missing: readonly { readonly ref: string; readonly requiredBy: string | undefined }[];
  /** Refs installed but not loadable (disabled, shadowed, damaged), with the ref that needed each. */
  readonly notLoadable: readonly {
    readonly ref: string;
    readonly requiredBy: string | undefined;
  }[];
  /** Each requirement cycle, as the refs around it, the first repeated at the end. */
  readonly cycles: readonly (readonly string[])[];
  /** Requested refs that are not `kind:name`. */
  readonly malformed: readonly string[];
}

/**
 * Resolve the requirement closure of `refs` (`kind:name`) over index `rows`. A ref met by a
 * loadable installed copy (`installed` says so) is satisfied and not expanded; one installed but
 * not loadable is reported and, when an index row offers it, still planned from that row; one
 * offered by no row is missing. Cycles are reported with their path. One predicate decides
 * "installed": the caller's `installed`, built from the package snapshot.
 */
export function resolveRequirements(input: {
  readonly rows: readonly IndexRow[];
  readonly refs: readonly string[];
  readonly installed?: ((ref: string) => InstalledStatus) | undefined;
}): RequirementResolution {
  const rows = new Map(input.rows.map((row) => [identityKey(row.kind, row.name), row]));
  const installed = input.installed ?? (() => undefined);
  const order: IndexRow[] = [];
  const satisfied = new Set<string>();
  const missing: { ref: string; requiredBy: string | undefined }[] = [];
  const notLoadable: { ref: string; requiredBy: string | undefined }[] = [];
  const cycles: string[][] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (ref: string, trail: readonly string[]) => {
    if (state.get(ref) === "done") return;
    if (state.get(ref) === "visiting") {
      cycles.push([...trail.slice(trail.indexOf(ref)), ref]);
      return;
    }
    const requiredBy = trail.at(-1);
    const status = installed(ref);
    if (status === "loadable") {
      satisfied.add(ref);
      state.set(ref, "done");
      return;
    }
    if (status === "not_loadable") notLoadable.push({ ref, requiredBy });
    const row = rows.get(ref);
    if (row === undefined) {
      if (status === undefined) missing.push({ ref, requiredBy });
      state.set(ref, "done");
      return;
    }
    state.set(ref, "visiting");
    for (const needed of row.requires) visit(needed, [...trail, ref]);
    state.set(ref, "done");
    order.push(row);
  };
  const malformed = input.refs.filter((ref) => parseRequirementRef(ref) === undefined);
  for (const ref of input.refs) if (parseRequirementRef(ref) !== undefined) visit(ref, []);
  return { order, satisfied: [...satisfied].sort(), missing, notLoadable, cycles, malformed };
}
