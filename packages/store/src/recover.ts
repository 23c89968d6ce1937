import type { Diagnostic } from "@skillshelf/core";
import { runWriter } from "./_writer.js";
import type { ScopeTarget } from "./types.js";

/**
 * Settle a scope without changing anything else: take its lock (recovering a dead holder's),
 * finish or roll back interrupted operations and remove their leftovers. Returns what it did;
 * `doctor` and tests use it, and every writer does the same before its own work.
 */
export function recoverScope(target: ScopeTarget): readonly Diagnostic[] {
  return runWriter(target, (context) => context.diagnostics);
}
