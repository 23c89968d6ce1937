import { existsSync } from "node:fs";
import {
  type Code,
  createDiagnostic,
  type Diagnostic,
  digestTree,
  identityKey,
  isSkillshelfError,
} from "@skillshelf/core";
import {
  folderInPlace,
  type IndexRow,
  readCollection,
  readIndex,
  stageCollectionSkill,
} from "@skillshelf/sources";
import { hasManifestEntry } from "@skillshelf/store";
import { result } from "./_results.js";
import type { IndexValidation } from "./types.js";

/**
 * Validate a package index (`library.yaml` or `marketplace.json`): every finding of reading it
 * (dropped rows are errors), requirements no row of the index offers (`index_requirement_unresolved`,
 * a warning: another index may offer them), local sources that do not exist
 * (`index_source_missing`), and, unless `verifyPins` is false, local sources whose tree digest is
 * not the pinned `sha256` (`index_pin_mismatch`). Remote sources are not fetched.
 */
export function validateIndex(
  path: string,
  options: { readonly verifyPins?: boolean | undefined } = {},
): IndexValidation {
  const index = readIndex(path);
  const diagnostics: Diagnostic[] = [...index.diagnostics];
  const offered = new Set(index.rows.map((row) => identityKey(row.kind, row.name)));
  for (const row of index.rows) {
    const report = (
      severity: "error" | "warning",
      code: Code,
      message: string,
      details: Record<string, unknown> = {},
    ) =>
      diagnostics.push(
        createDiagnostic(severity, code, `${identityKey(row.kind, row.name)}: ${message}`, {
          path: index.path,
          details: {
            name: row.name,
            ...details,
          },
        }),
      );
    for (const ref of row.requires)
      if (!offered.has(ref))
        report(
          "warning",
          "index_requirement_unresolved",
          `requires ${ref}, which this index does not offer`,
          { ref },
        );
    const folder = folderInPlace(row.source);
    if (folder === undefined) continue;
    if (!existsSync(folder)) {
      report(
        index.format === "library" ? "error" : "warning",
        "index_source_missing",
        `its source ${folder} does not exist`,
        { source: folder },
      );
      continue;
    }
    if (options.verifyPins !== false && row.sha256 !== undefined) checkPin(row, folder, report);
  }
  return {
    ...result(diagnostics, { resources: [], prerequisites: [] }),
    format: index.format,
    rows: index.rows,
  };
}

// --- internal ---

/**
 * The tree digest an install of the folder records: its own for a package, and for a lone skill
 * with no manifest that of the skill package install makes of it (its manifest written in).
 */
function installedDigest(path: string): string {
  const { skills } = hasManifestEntry(path) ? { skills: [] } : readCollection(path);
  const [only] = skills;
  if (skills.length !== 1 || only === undefined || only.path !== ".")
    return digestTree(path).digest;
  const staged = stageCollectionSkill({ dir: path, source: { type: "local", path } }, only);
  try {
    return staged.digest;
  } finally {
    staged.release();
  }
}

function checkPin(
  row: IndexRow,
  folder: string,
  report: (
    severity: "error",
    code: Code,
    message: string,
    details?: Record<string, unknown>,
  ) => void,
): void {
  try {
    const observed = installedDigest(folder);
    if (observed !== row.sha256)
      report(
        "error",
        "index_pin_mismatch",
        `its files digest to ${observed}, not the pinned ${row.sha256}; re-pin it or restore the files`,
        { expected: row.sha256, observed },
      );
  } catch (error) {
    if (!isSkillshelfError(error)) throw error;
    report("error", "index_source_invalid", `its source cannot be digested: ${error.message}`, {
      code: error.code,
    });
  }
}
