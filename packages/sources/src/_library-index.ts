import { dirname } from "node:path";
import type { PackageKind } from "@skillshelf/core";
import {
  parseProvides,
  parseRequires,
  type RowReporter,
  reportRow,
  requiredFieldProblems,
  stringList,
} from "./_rows.js";
import { parseSourceUrl } from "./source-url.js";
import type { IndexOrigin, IndexRow } from "./types.js";

const KNOWN_KEYS = new Set([
  "kind",
  "name",
  "description",
  "sourceUrl",
  "version",
  "sha256",
  "requires",
  "category",
  "triggers",
  "provides",
  "audit",
]);

/**
 * The rows of a `library.yaml` document (a list, or `{entries: [...]}`): each needs `kind`, `name`,
 * `description`, `sourceUrl`, `version` and `sha256`; a row missing any, with a source Skillshelf
 * cannot fetch, or with a malformed `requires` is dropped with a finding naming it; malformed
 * `provides` hints are dropped with a warning and the row kept; unknown keys are warnings.
 */
export function libraryRows(
  document: unknown,
  reporter: RowReporter,
  origin: IndexOrigin,
): IndexRow[] | undefined {
  const entries = Array.isArray(document)
    ? document
    : typeof document === "object" &&
        document !== null &&
        Array.isArray((document as { entries?: unknown }).entries)
      ? (document as { entries: unknown[] }).entries
      : document === null
        ? []
        : undefined;
  if (entries === undefined) return undefined;
  const rows: IndexRow[] = [];
  entries.forEach((entry, position) => {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      reportRow(
        reporter,
        "error",
        "index_row_invalid",
        position,
        undefined,
        "is not a mapping; it is skipped",
      );
      return;
    }
    const row = entry as Record<string, unknown>;
    const problems = requiredFieldProblems(row, { version: true, sha256: true });
    if (typeof row.sourceUrl !== "string") problems.push("sourceUrl");
    if (problems.length > 0) {
      reportRow(
        reporter,
        "error",
        "index_row_invalid",
        position,
        row.name,
        `needs a valid ${problems.join(", ")}; the row is skipped`,
      );
      return;
    }
    const source = parseSourceUrl(row.sourceUrl as string, dirname(reporter.index));
    if (!source.ok) {
      reportRow(
        reporter,
        "error",
        source.code === "source_invalid" ? "source_unsupported" : source.code,
        position,
        row.name,
        `${source.problem}; the row is skipped`,
      );
      return;
    }
    const requires = parseRequires(row.requires);
    if (requires === undefined) {
      reportRow(
        reporter,
        "error",
        "index_requirement_invalid",
        position,
        row.name,
        "requires must be a list of kind:name refs; the row is skipped",
      );
      return;
    }
    for (const key of Object.keys(row))
      if (!KNOWN_KEYS.has(key))
        reportRow(
          reporter,
          "warning",
          "index_key_unknown",
          position,
          row.name,
          `"${key}" is not an index field; it is ignored`,
        );
    const provides = row.provides === undefined ? undefined : parseProvides(row.provides);
    if (row.provides !== undefined && provides === undefined)
      reportRow(
        reporter,
        "warning",
        "index_provides_ignored",
        position,
        row.name,
        "provides hints are malformed or too large; they are ignored",
      );
    rows.push({
      kind: row.kind as PackageKind,
      name: row.name as string,
      description: (row.description as string).trim(),
      version: row.version as string,
      sha256: row.sha256 as string,
      sourceUrl: row.sourceUrl as string,
      source: source.source,
      requires,
      ...(typeof row.category === "string" ? { category: row.category } : {}),
      ...(stringList(row.triggers) === undefined ? {} : { triggers: stringList(row.triggers) }),
      ...(provides === undefined ? {} : { provides }),
      format: "skillshelf",
      index: reporter.index,
      catalog: reporter.catalog,
      origin,
    });
  });
  return rows;
}
