import { type Diagnostic, hasErrors, sortDiagnostics } from "@skillshelf/core";
import type { ValidatedResource } from "./types.js";

/** The diagnostics about one file: those whose path is that file. */
function diagnosticsOf(diagnostics: readonly Diagnostic[], path: string): Diagnostic[] {
  return diagnostics.filter((diagnostic) => diagnostic.path === path);
}

/** A validated resource from a loaded item and every diagnostic of the load. */
export function resourceOf(
  item: { readonly name: string; readonly path: string; readonly description?: string | undefined },
  kind: ValidatedResource["kind"],
  diagnostics: readonly Diagnostic[],
  shownPath: string = item.path,
): ValidatedResource {
  const own = diagnosticsOf(diagnostics, item.path);
  return {
    kind,
    name: item.name,
    path: shownPath,
    ...(item.description === undefined ? {} : { description: item.description }),
    valid: !hasErrors(own),
    diagnostics: own,
  };
}

/** The result shape every validator returns. */
export function result<T extends object>(
  diagnostics: readonly Diagnostic[],
  rest: T,
): T & { valid: boolean; diagnostics: Diagnostic[] } {
  return { ...rest, valid: !hasErrors(diagnostics), diagnostics: sortDiagnostics(diagnostics) };
}
