import { createDiagnostic } from "./diagnostics.js";
import type { Diagnostic } from "./types.js";

/** The parts of a schema validation issue (zod's shape) that `schemaDiagnostics` reads. */
export interface SchemaIssue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly keys?: readonly string[];
}

/**
 * Map schema issues (zod's) to our diagnostics: a key zod does not know is `key_unknown`, a required key
 * that is absent is `key_missing`, anything else is `field_invalid`; each names the key by its
 * path (`steps[1].agent`).
 */
export function schemaDiagnostics(
  issues: readonly SchemaIssue[],
  input: unknown,
  path: string,
  what: string,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const issue of issues) {
    const at = keyPath(issue.path);
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys ?? []) {
        const full = at === "" ? key : `${at}.${key}`;
        diagnostics.push(
          createDiagnostic("error", "key_unknown", `${what} has an unknown key "${full}"`, {
            path,
            details: { key: full },
          }),
        );
      }
    } else if (valueAt(input, issue.path) === undefined) {
      diagnostics.push(
        createDiagnostic("error", "key_missing", `${what} is missing the required key "${at}"`, {
          path,
          details: { key: at },
        }),
      );
    } else {
      diagnostics.push(
        createDiagnostic(
          "error",
          "field_invalid",
          `${what}: "${at}" ${lowerFirst(issue.message)}`,
          { path, details: { key: at } },
        ),
      );
    }
  }
  return diagnostics;
}

// --- internal ---

function keyPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, part) =>
      typeof part === "number"
        ? `${text}[${part}]`
        : text === ""
          ? String(part)
          : `${text}.${String(part)}`,
    "",
  );
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const part of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
