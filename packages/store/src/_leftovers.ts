import { readdirSync } from "node:fs";
import { join } from "node:path";
import { createDiagnostic, type Diagnostic, errnoCode, removeTree } from "@skillshelf/core";

// What interrupted writes leave in a scope's packages folder, besides a step journal.

const LEFTOVER = /^\.(.+)\.(install|discard|tmp)-\d+-[0-9a-f]+$/;
const BACKUP = /^\.(.+)\.(backup|removed)-\d+-[0-9a-f]+$/;

/**
 * Remove the temporary files, staging folders and discarded trees interrupted writes left (never
 * through a link: a symlink there is removed itself), given the folder's dot entries.
 */
export function removeLeftovers(dir: string, dotEntries: readonly string[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const name of dotEntries) {
    const match = LEFTOVER.exec(name);
    if (match === null) continue;
    removeTree(join(dir, name));
    if (match[2] !== "discard")
      diagnostics.push(
        createDiagnostic(
          "warning",
          "leftover_removed",
          `removed ${name}, left by an interrupted operation`,
          { path: join(dir, name), details: { kind: match[2] } },
        ),
      );
  }
  return diagnostics;
}

/**
 * What interrupted or replaced writes left in a scope's packages folder: temporary files and
 * staging (`leftover`, which the next writer removes) and the trees kept because their files
 * differed from their record (`backup`, kept until a person deletes them).
 */
export function scopeLeftovers(dir: string): { path: string; kind: "leftover" | "backup" }[] {
  return listDotEntries(dir).flatMap((name): { path: string; kind: "leftover" | "backup" }[] => {
    if (LEFTOVER.test(name)) return [{ path: join(dir, name), kind: "leftover" as const }];
    if (BACKUP.test(name)) return [{ path: join(dir, name), kind: "backup" as const }];
    return [];
  });
}

/** The names in `dir` starting with a dot: journals, markers, leftovers; none for a missing folder. */
export function listDotEntries(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.startsWith("."));
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return [];
    throw error;
  }
}
