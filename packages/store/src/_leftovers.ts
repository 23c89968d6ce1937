import { readdirSync } from "node:fs";
import { join } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  errnoCode,
  hostTag,
  isProcessRunning,
  removeTree,
} from "@skillshelf/core";

// What interrupted writes leave in a scope's packages folder, besides a step journal.

const LEFTOVER = /^\.(.+)\.(install|discard|tmp)-(\d+)-[0-9a-f]+$/;
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
    const path = join(dir, name);
    // a lock folder being prepared is made outside the lock, by a process that may take it now
    if (match[1] === "lock" && match[2] === "tmp") {
      if (!removePreparedLock(path, Number(match[3]))) continue;
    } else removeTree(path);
    if (match[2] !== "discard")
      diagnostics.push(
        createDiagnostic(
          "warning",
          "leftover_removed",
          `removed ${name}, left by an interrupted operation`,
          { path, details: { kind: match[2] } },
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

/**
 * Remove a prepared lock folder unless its process runs here or writes into it as it goes (one
 * on another host); true when removed.
 */
function removePreparedLock(path: string, pid: number): boolean {
  if (isProcessRunning({ pid, start: undefined, host: hostTag() })) return false;
  try {
    removeTree(path);
    return true;
  } catch (error) {
    if (errnoCode(error) === "ENOTEMPTY") return false;
    throw error;
  }
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
