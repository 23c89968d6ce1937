import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  canonicalJson,
  createDiagnostic,
  type Diagnostic,
  digestTree,
  errnoCode,
  isPackageId,
  parseJsonDocument,
  readRegularFile,
  siblingName,
  syncFolder,
} from "@skillshelf/core";
import { writeScopeFile } from "./_atomic.js";
import type { FaultHook } from "./_faults.js";
import { keepAsPrevious, settlePrevious } from "./_previous.js";
import type { InstallRecord, ScopeState } from "./types.js";

/**
 * What a tree-moving writer intends, written before it moves anything. The commit point is the
 * `state.json` rename: a journal whose `after` record is in the state is committed, any other is
 * not, and the tree that counts is found from the journal until the next writer settles it.
 */
export interface Journal {
  readonly version: 1;
  readonly id: string;
  readonly operation: "install" | "remove" | "rollback";
  readonly pid: number;
  readonly before: InstallRecord | null;
  readonly after: InstallRecord | null;
  /** Sibling name the existing tree moves to, `null` when there was no tree. */
  readonly backup: string | null;
  /** Sibling name of the staged tree (installs only). */
  readonly staging: string | null;
}

const JOURNAL = /^\.(.+)\.journal\.json$/;
const LEFTOVER = /^\.(.+)\.(install|discard|tmp)-\d+-[0-9a-f]+$/;
const BACKUP = /^\.(.+)\.(backup|removed)-\d+-[0-9a-f]+$/;
// a sibling's name as `siblingName` makes it: no separator, so it stays in the folder
const SIBLING = /^\.[^/\\]+\.[a-z]+-\d+-[0-9a-f]+$/;

/** The journal file of a copy. */
export function journalPath(dir: string, id: string): string {
  return join(dir, `.${id}.journal.json`);
}

/**
 * Write each copy's journal, durable once this returns: every file is fsynced as it is written
 * and the folder once after the last.
 */
export function writeJournals(dir: string, journals: readonly Journal[], fault: FaultHook): void {
  for (const journal of journals) {
    writeScopeFile({
      path: journalPath(dir, journal.id),
      text: `${JSON.stringify(journal, null, 2)}\n`,
      expected: undefined,
      fault,
      point: "journal-temporary-written",
      syncFolder: false,
    });
    fault("journaled");
  }
  syncFolder(dir);
}

// a journal holds two install records; anything larger is not one
const MAX_JOURNAL_BYTES = 64 * 1024;

/**
 * Every journal in a scope's `packages/` folder (whose dot entries a caller that has just listed
 * it may pass); an unreadable journal is reported and skipped.
 */
export function readJournals(
  dir: string,
  diagnostics: Diagnostic[],
  dotEntries: readonly string[] = listDotEntries(dir),
): Map<string, Journal> {
  const journals = new Map<string, Journal>();
  for (const name of dotEntries) {
    const id = JOURNAL.exec(name)?.[1];
    if (id === undefined || !isPackageId(id)) continue;
    const path = join(dir, name);
    try {
      const parsed = parseJsonDocument(readRegularFile(path, MAX_JOURNAL_BYTES).toString("utf8"));
      if (parsed.ok && isJournalOf(parsed.value, id)) {
        journals.set(id, parsed.value);
        continue;
      }
    } catch {
      // reported below, like any journal this reader cannot use
    }
    diagnostics.push(
      createDiagnostic(
        "warning",
        "journal_unreadable",
        `${path} is not a journal this version can read`,
        { path },
      ),
    );
  }
  return journals;
}

/**
 * True when `value` is a journal of copy `id` as its writer writes one; the trees it names must
 * be that copy's own siblings, so a forged journal can never move or delete anything else.
 */
function isJournalOf(value: unknown, id: string): value is Journal {
  if (typeof value !== "object" || value === null) return false;
  const journal = value as Record<string, unknown>;
  const sibling = (name: unknown) =>
    name === null || (typeof name === "string" && name.startsWith(`.${id}.`) && SIBLING.test(name));
  const record = (field: unknown) =>
    field === null || (typeof field === "object" && !Array.isArray(field));
  return (
    journal.version === 1 &&
    journal.id === id &&
    (journal.operation === "install" ||
      journal.operation === "remove" ||
      journal.operation === "rollback") &&
    typeof journal.pid === "number" &&
    record(journal.before) &&
    record(journal.after) &&
    sibling(journal.backup) &&
    sibling(journal.staging)
  );
}

/** True when the journal's intended record is what the state now says: its operation committed. */
function isCommitted(journal: Journal, state: ScopeState): boolean {
  return canonicalJson(state.installed[journal.id] ?? null) === canonicalJson(journal.after);
}

/**
 * Where the tree that counts for a copy is, given its journal: the copy's own folder unless an
 * uncommitted operation has moved the old tree aside (then the moved tree) or put an uncommitted
 * new tree in place of nothing (then there is none).
 */
export function journaledTreeDir(
  dir: string,
  journal: Journal,
  state: ScopeState,
): string | undefined {
  const target = join(dir, journal.id);
  if (isCommitted(journal, state)) return journal.after === null ? undefined : target;
  if (journal.backup !== null && existsSync(join(dir, journal.backup)))
    return join(dir, journal.backup);
  return journal.backup === null ? undefined : target;
}

/**
 * Settle what earlier writers left (call holding the scope lock, after reading a valid state):
 * finish committed journals, roll back uncommitted ones, remove staging folders, temporary files
 * and discarded trees. A moved-aside tree whose bytes differ from its record is kept and reported.
 */
export function settleScope(
  dir: string,
  state: ScopeState,
  dotEntries: readonly string[] = listDotEntries(dir),
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const journal of readJournals(dir, diagnostics, dotEntries).values()) {
    const target = join(dir, journal.id);
    const backup = journal.backup === null ? undefined : join(dir, journal.backup);
    const backupExists = backup !== undefined && existsSync(backup);
    if (isCommitted(journal, state)) {
      const previous = state.installed[journal.id]?.previous;
      if (
        backupExists &&
        previous !== undefined &&
        digestOrUndefined(backup) === previous.contentDigest
      )
        keepAsPrevious(dir, journal.id, backup);
      else if (backupExists) {
        const kept = keepIfChanged(dir, journal.id, backup, journal.before);
        if (kept !== undefined) diagnostics.push(backupKept(kept, journal.id));
      }
      diagnostics.push(
        createDiagnostic(
          "info",
          "operation_completed",
          `finished tidying an interrupted ${journal.operation} of ${journal.id} (process ${journal.pid}); it had committed`,
          { path: target, details: { id: journal.id, operation: journal.operation } },
        ),
      );
    } else {
      if (existsSync(target) && (backupExists || journal.backup === null)) {
        const kept = keepIfChanged(dir, journal.id, target, journal.after);
        if (kept !== undefined) diagnostics.push(backupKept(kept, journal.id));
      }
      if (backupExists) renameSync(backup, target);
      diagnostics.push(
        createDiagnostic(
          "warning",
          "operation_rolled_back",
          `an interrupted ${journal.operation} of ${journal.id} (process ${journal.pid}) was rolled back; the copy is as it was before`,
          { path: target, details: { id: journal.id, operation: journal.operation } },
        ),
      );
    }
    rmSync(journalPath(dir, journal.id), { force: true });
  }
  // settling journals adds no leftover, so the listing taken before it still holds them all
  for (const name of dotEntries) {
    const match = LEFTOVER.exec(name);
    if (match === null) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
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
  settlePrevious(dir, state);
  syncFolder(dir);
  return diagnostics;
}

/**
 * Delete the tree at `path` if it matches `record`; otherwise move it to a `.<id>.backup-…`
 * sibling (unless it already is one) and return where it is kept.
 */
export function keepIfChanged(
  dir: string,
  id: string,
  path: string,
  record: InstallRecord | null,
): string | undefined {
  if (record !== null && digestOrUndefined(path) === record.contentDigest) {
    discardTree(dir, id, path);
    return undefined;
  }
  if (/\.(backup|removed)-\d+-[0-9a-f]+$/.test(path)) return path;
  const kept = join(dir, siblingName(id, "backup"));
  renameSync(path, kept);
  return kept;
}

/** Remove a tree: renamed aside first, so an interrupted removal is recognisable leftover. */
function discardTree(dir: string, id: string, path: string): void {
  const aside = join(dir, siblingName(id, "discard"));
  renameSync(path, aside);
  rmSync(aside, { recursive: true, force: true });
}

// --- internal ---

function backupKept(path: string, id: string): Diagnostic {
  return createDiagnostic(
    "warning",
    "backup_kept",
    `kept ${path}: its files differed from what was installed for ${id}`,
    { path, details: { id } },
  );
}

function digestOrUndefined(path: string): string | undefined {
  try {
    return digestTree(path).digest;
  } catch {
    return undefined;
  }
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
