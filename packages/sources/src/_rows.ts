import {
  type Code,
  createDiagnostic,
  type Diagnostic,
  identityKey,
  isPackageId,
  isPackageKind,
  isResourceKind,
  isSemver,
  PACKAGE_KINDS,
  parseRequirementRef,
} from "@skillshelf/core";
import type { ProvidedResource } from "./types.js";

/** Limits on the body-free `provides` hints of one row. */
const PROVIDES_LIMITS = { entries: 256, name: 128, description: 256 } as const;

const HINT_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

/** Reports findings about one row of one index. */
export interface RowReporter {
  readonly index: string;
  /** What the rows' `catalog` says. */
  readonly catalog: string;
  readonly diagnostics: Diagnostic[];
}

/** Record a finding about row `row` (its position) named `name`. */
export function reportRow(
  reporter: RowReporter,
  severity: "error" | "warning",
  code: Code,
  row: number,
  name: unknown,
  message: string,
): void {
  const label =
    typeof name === "string" && name !== "" ? `${name} (row ${row + 1})` : `row ${row + 1}`;
  reporter.diagnostics.push(
    createDiagnostic(severity, code, `${label}: ${message}`, {
      path: reporter.index,
      details: {
        row: row + 1,
        ...(typeof name === "string" ? { name } : {}),
      },
    }),
  );
}

/** True for a package kind. */

/** The fields of a row that break their rule, for one `index_row_invalid` finding. */
export function requiredFieldProblems(
  row: Readonly<Record<string, unknown>>,
  required: { version: boolean; sha256: boolean },
): string[] {
  const problems: string[] = [];
  if (!isPackageKind(row.kind)) problems.push(`kind (one of ${PACKAGE_KINDS.join(", ")})`);
  if (typeof row.name !== "string" || !isPackageId(row.name)) problems.push("name (a package id)");
  if (typeof row.description !== "string" || row.description.trim() === "")
    problems.push("description");
  if (row.version !== undefined || required.version)
    if (typeof row.version !== "string" || !isSemver(row.version))
      problems.push("version (explicit SemVer)");
  if (row.sha256 !== undefined || required.sha256)
    if (typeof row.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(row.sha256))
      problems.push("sha256 (the 64-hex tree digest)");
  return problems;
}

/** A row's `requires`, or `undefined` when any ref is malformed. */
export function parseRequires(value: unknown): string[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const refs = value.filter(
    (item): item is string => typeof item === "string" && parseRequirementRef(item) !== undefined,
  );
  return refs.length === value.length ? [...new Set(refs)] : undefined;
}

/**
 * A row's `provides` hints: `[{kind, name, description?}]` with a resource kind, a plain name and
 * the size limits; repeated `kind:name` hints are merged. `undefined` when malformed.
 */
export function parseProvides(value: unknown): ProvidedResource[] | undefined {
  if (!Array.isArray(value) || value.length > PROVIDES_LIMITS.entries) return undefined;
  const hints = new Map<string, ProvidedResource>();
  for (const item of value) {
    if (typeof item !== "object" || item === null) return undefined;
    const { kind, name, description } = item as Record<string, unknown>;
    if (!isResourceKind(kind)) return undefined;
    if (typeof name !== "string" || name.length > PROVIDES_LIMITS.name || !HINT_NAME.test(name))
      return undefined;
    if (
      description !== undefined &&
      (typeof description !== "string" || description.length > PROVIDES_LIMITS.description)
    )
      return undefined;
    const key = identityKey(kind, name);
    if (!hints.has(key))
      hints.set(key, {
        kind,
        name,
        ...(description === undefined ? {} : { description }),
      });
  }
  return [...hints.values()];
}

/** A list of non-empty strings, or `undefined`. */
export function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const strings = value.filter(
    (item): item is string => typeof item === "string" && item.trim() !== "",
  );
  return strings.length > 0 ? strings : undefined;
}
