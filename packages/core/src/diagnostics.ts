import { type Code, hintOf } from "./codes.js";
import type { SkillshelfError } from "./errors.js";
import type { Diagnostic, DiagnosticPlace, HintedDiagnostic, Severity } from "./types.js";

/**
 * Build a diagnostic. `hint` defaults to the code's hint from the catalogue; fields that are not
 * given are left out, so JSON output stays small.
 */
export function createDiagnostic<C extends Code>(
  severity: Severity,
  code: C,
  message: string,
  place: DiagnosticPlace<C> = {},
): HintedDiagnostic<C> {
  const { path, line, column, details } = place;
  return {
    severity,
    code,
    message,
    ...(path === undefined ? {} : { path }),
    ...(line === undefined ? {} : { line }),
    ...(column === undefined ? {} : { column }),
    hint: place.hint ?? hintOf(code, details),
    ...(details === undefined ? {} : { details }),
  };
}

/**
 * A `SkillshelfError` as the finding it reports: one failure shape for refusals, step errors and
 * what the command line prints.
 */
export function errorDiagnostic(error: SkillshelfError): HintedDiagnostic {
  return createDiagnostic("error", error.code, error.message, {
    path: error.path,
    hint: error.hint,
    details: error.details,
  });
}

/** True when any diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((diagnostic) => diagnostic.severity === "error");
}

/**
 * Order diagnostics deterministically: by path, then code, then message. Output built from a sorted
 * list is byte-identical across runs and machines with the same tree.
 */
export function sortDiagnostics<D extends Diagnostic>(diagnostics: readonly D[]): D[] {
  return [...diagnostics].sort(
    (a, b) =>
      compareText(a.path ?? "", b.path ?? "") ||
      compareText(a.code, b.code) ||
      compareText(a.message, b.message),
  );
}

/** Code-unit string order, independent of locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
