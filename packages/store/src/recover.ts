import { join } from "node:path";
import { createDiagnostic, type Diagnostic } from "@skillshelf/core";
import { scopeLeftovers as leftoversIn } from "./_leftovers.js";
import { hasStepJournal, STEP_JOURNAL } from "./_step-journal.js";
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

/**
 * The finding for a change of the scope that was interrupted and is not settled yet
 * (`operation_pending`, an error: what it left may be half done), `undefined` when none is.
 */
export function pendingChange(
  target: Pick<ScopeTarget, "environment" | "scope">,
): Diagnostic | undefined {
  const dir = packagesDir(target.environment, target.scope);
  if (!hasStepJournal(dir)) return undefined;
  return createDiagnostic(
    "error",
    "operation_pending",
    `an interrupted change in the ${target.scope} scope has not been settled`,
    { path: join(dir, STEP_JOURNAL), details: { scope: target.scope } },
  );
}
