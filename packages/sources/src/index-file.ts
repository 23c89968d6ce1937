import { basename, resolve } from "node:path";
import {
  type Code,
  createDiagnostic,
  type Diagnostic,
  identityKey,
  parseJsonDocument,
  parseYamlDocument,
  readTextDocument,
} from "@skillshelf/core";
import { libraryRows } from "./_library-index.js";
import { marketplaceRows } from "./_marketplace.js";
import type { IndexOrigin, IndexResult, IndexRow } from "./types.js";

/** Largest index file read. */
export const MAX_INDEX_BYTES: number = 8 * 1024 * 1024;

/**
 * Read one package index: a `library.yaml` (YAML or JSON; a list of rows or `{entries: [...]}`)
 * or a Claude `marketplace.json` (a file of that name, or any JSON object with a `plugins` list).
 * Malformed rows are dropped with a finding naming them; the rest are kept. Within one file a
 * later row replaces an earlier one of the same `kind:name`, with a warning. A file that cannot
 * be read or parsed gives no rows and an error. Never throws for bad content. `fetchedFrom` (a
 * remote index's URL) names the rows' `catalog` when the index names itself nothing.
 */
export function readIndex(
  path: string,
  origin: IndexOrigin = "from",
  fetchedFrom?: string,
): IndexResult {
  const index = resolve(path);
  const diagnostics: Diagnostic[] = [];
  const failed = (format: IndexResult["format"], code: Code, message: string): IndexResult => ({
    path: index,
    format,
    rows: [],
    diagnostics: [...diagnostics, createDiagnostic("error", code, message, { path: index })],
  });
  const document = readTextDocument({
    path: index,
    realPath: index,
    maxBytes: MAX_INDEX_BYTES,
    what: "package index",
  });
  if (!document.ok) {
    const [problem] = document.diagnostics;
    return failed(
      "library",
      problem === undefined || problem.code === "read_failed" ? "index_unreadable" : problem.code,
      problem?.message ?? "package index cannot be read",
    );
  }
  const parsed = parseDocument(document.value.text, index);
  if (!parsed.ok)
    return failed(
      "library",
      parsed.code ?? "index_invalid",
      `package index is not valid ${parsed.syntax} (${parsed.message}); fix the syntax`,
    );
  const reporter = {
    index,
    diagnostics,
    catalog: ownName(parsed.value) ?? fetchedFrom ?? index,
  };
  const looksLikeMarketplace =
    basename(index) === "marketplace.json" ||
    (typeof parsed.value === "object" && parsed.value !== null && "plugins" in parsed.value);
  const format = looksLikeMarketplace ? "marketplace" : "library";
  const rows = looksLikeMarketplace
    ? marketplaceRows(parsed.value, reporter, origin)
    : libraryRows(parsed.value, reporter, origin);
  if (rows === undefined)
    return failed(
      format,
      "index_invalid",
      looksLikeMarketplace
        ? "a marketplace.json needs a plugins list"
        : "a package index is a list of rows or a mapping with an entries list",
    );
  return { path: index, format, rows: withoutRepeats(rows, reporter.diagnostics), diagnostics };
}

// --- internal ---

// the `name` an index document gives itself, as a marketplace.json does
function ownName(document: unknown): string | undefined {
  const name =
    typeof document === "object" && document !== null && !Array.isArray(document)
      ? (document as { name?: unknown }).name
      : undefined;
  return typeof name === "string" && name.trim() !== "" ? name.trim() : undefined;
}

function parseDocument(
  text: string,
  path: string,
):
  | { ok: true; value: unknown }
  | { ok: false; syntax: string; message: string; code?: "json_too_deep" } {
  if (path.endsWith(".json") || /^\s*[[{]/.test(text)) {
    const parsed = parseJsonDocument(text);
    if (parsed.ok || path.endsWith(".json"))
      return parsed.ok ? parsed : { ...parsed, syntax: "JSON" };
  }
  const yaml = parseYamlDocument(text, { maxLength: MAX_INDEX_BYTES });
  return yaml.ok ? yaml : { ok: false, syntax: "YAML", message: yaml.message };
}

function withoutRepeats(rows: readonly IndexRow[], diagnostics: Diagnostic[]): IndexRow[] {
  const byKey = new Map<string, IndexRow>();
  for (const row of rows) {
    const key = identityKey(row.kind, row.name);
    if (byKey.has(key))
      diagnostics.push(
        createDiagnostic(
          "warning",
          "index_row_repeated",
          `${key} appears more than once in this index; the last row counts`,
          { path: row.index, details: { name: row.name } },
        ),
      );
    byKey.set(key, row);
  }
  return [...byKey.values()];
}
