import type { Diagnostic } from "@skillshelf/core";
import { scopeLeftovers as leftoversIn } from "./_leftovers.js";
import { runWriter } from "./_writer.js";
import { packagesDir } from "./scopes.js";
import type { ScopeTarget } from "./types.js";

/**
 * Settle a scope without changing anything else: take its lock (recovering a dead holder's),
 * finish or roll back interrupted operations and remove their leftovers. Returns what it did;
 * `doctor` and tests use it, and every writer does the same before its own work.
 */
export function recoverScope(target: ScopeTarget): readonly Diagnostic[] {
  return runWriter(target, (context) => context.diagnostics);
}

/** What interrupted or replaced writes left in a scope's packages folder; see `recoverScope`. */
export function scopeLeftovers(
  target: Pick<ScopeTarget, "environment" | "scope">,
): { readonly path: string; readonly kind: "leftover" | "backup" }[] {
  return leftoversIn(packagesDir(target.environment, target.scope));
}
