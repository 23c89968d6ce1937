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
// one commit moving several copies' trees journals them all in one file (`@` is in no package id)
const BATCH_JOURNAL = ".@batch.journal.json";
const LEFTOVER = /^\.(.+)\.(install|discard|tmp)-\d+-[0-9a-f]+$/;
const BACKUP = /^\.(.+)\.(backup|removed)-\d+-[0-9a-f]+$/;
// a sibling's name as `siblingName` makes it: no separator, so it stays in the folder
const SIBLING = /^\.[^/\\]+\.[a-z]+-\d+-[0-9a-f]+$/;

/** The journal file of a copy changed on its own. */
export function journalPath(dir: string, id: string): string {
  return join(dir, journalName(id));
}

/**
 * Write the journals of one commit, durable once this returns: one copy's in its own file, and
 * several copies' together in one batch file (`{"version":1,"journals":[…]}`), so a commit of
 * many copies writes and fsyncs one file, not one per copy.
 */
export function writeJournals(dir: string, journals: readonly Journal[], fault: FaultHook): void {
  const [only] = journals;
  writeScopeFile({
    path: commitJournalPath(
      dir,
      journals.map((journal) => journal.id),
    ),
    text: `${JSON.stringify(journals.length === 1 ? only : { version: 1, journals }, null, 2)}\n`,
    expected: undefined,
    fault,
    point: "journal-temporary-written",
    syncFolder: false,
  });
  fault("journaled");
  syncFolder(dir);
}

/** Remove the journals of a settled commit over copies `ids` (its own files or its batch file). */
export function removeJournals(dir: string, ids: readonly string[]): void {
  rmSync(commitJournalPath(dir, ids), { force: true });
}

/**
 * Whether an interrupted commit left copy `id` journaled: its own journal file, or a batch
 * journal naming it (every copy, when the batch journal cannot be read).
 */
export function journaledCopies(dir: string): (id: string) => boolean {
  const dotEntries = listDotEntries(dir);
  const batch = dotEntries.includes(BATCH_JOURNAL)
    ? readJournals(dir, [], [BATCH_JOURNAL])
    : new Map<string, Journal>();
  const unreadable = dotEntries.includes(BATCH_JOURNAL) && batch.size === 0;
  return (id) => unreadable || batch.has(id) || dotEntries.includes(journalName(id));
}

/** The journal files a writer of copy `id` must not go past: its own, and a batch journal. */
export function journalFilesOf(dir: string, id: string): string[] {
  return [journalPath(dir, id), join(dir, BATCH_JOURNAL)];
}

// past this many names, one listing of the folder is cheaper than a look for each
const LOOKUPS_BEFORE_LISTING = 8;

/** The journal file names to read for copies `ids`: their own files and a batch file, those that exist. */
export function journalNames(dir: string, ids: readonly string[]): string[] {
  const names = [...ids.map(journalName), BATCH_JOURNAL];
  // a look per name costs the same however large the scope is
  if (names.length <= LOOKUPS_BEFORE_LISTING)
    return names.filter((name) => existsSync(join(dir, name)));
  const present = new Set(listDotEntries(dir));
  return names.filter((name) => present.has(name));
}

// a journal holds two install records; anything larger is not one
const MAX_JOURNAL_BYTES = 64 * 1024;
const MAX_BATCH_JOURNAL_BYTES = 64 * 1024 * 1024;

/**
 * Every journal in a scope's `packages/` folder (whose dot entries a caller that has just listed
 * it may pass); an unreadable journal is reported and skipped.
 */
export function readJournals(
  dir: string,
  diagnostics: Diagnostic[],
  dotEntries: readonly string[] = listDotEntries(dir),
): Map<string, Journal & { readonly file: string }> {
  const journals = new Map<string, Journal & { readonly file: string }>();
  for (const name of dotEntries) {
    const id = JOURNAL.exec(name)?.[1];
    const batch = name === BATCH_JOURNAL;
    if (!batch && (id === undefined || !isPackageId(id))) continue;
    const path = join(dir, name);
    try {
      const limit = batch ? MAX_BATCH_JOURNAL_BYTES : MAX_JOURNAL_BYTES;
      const parsed = parseJsonDocument(readRegularFile(path, limit).toString("utf8"));
      const entries = parsed.ok ? (batch ? batchEntries(parsed.value) : [parsed.value]) : undefined;
      // a batch entry names its own copy; a copy's own file is named after it
      const owner = (entry: unknown) => (batch ? (entry as { id?: unknown } | null)?.id : id);
      if (entries?.every((entry): entry is Journal => isJournalOf(entry, owner(entry)))) {
        for (const journal of entries) journals.set(journal.id, { ...journal, file: path });
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

function journalName(id: string): string {
  return `.${id}.journal.json`;
}

/** The journal file of a commit over copies `ids`: a lone copy's own file, else the batch file. */
function commitJournalPath(dir: string, ids: readonly string[]): string {
  const [only] = ids;
  return ids.length === 1 && only !== undefined ? journalPath(dir, only) : join(dir, BATCH_JOURNAL);
}

/** The entries of a batch journal, each still to be checked; `undefined` when it is not one. */
function batchEntries(value: unknown): unknown[] | undefined {
  const batch = value as { version?: unknown; journals?: unknown } | null;
  return batch?.version === 1 && Array.isArray(batch.journals) && batch.journals.length > 0
    ? batch.journals
    : undefined;
}

/**
 * True when `value` is a journal of copy `id` as its writer writes one; the trees it names must
 * be that copy's own siblings, so a forged journal can never move or delete anything else.
 */
function isJournalOf(value: unknown, id: unknown): value is Journal {
  if (typeof value !== "object" || value === null) return false;
  const journal = value as Record<string, unknown>;
  const sibling = (name: unknown) =>
    name === null || (typeof name === "string" && name.startsWith(`.${id}.`) && SIBLING.test(name));
  const record = (field: unknown) =>
    field === null || (typeof field === "object" && !Array.isArray(field));
  return (
    journal.version === 1 &&
    typeof id === "string" &&
    isPackageId(id) &&
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
  const settled = new Set<string>();
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
    settled.add(journal.file);
  }
  // a batch journal goes once every copy it names is settled
  for (const file of settled) rmSync(file, { force: true });
  // settling journals adds no leftover, so the listing taken before it still holds them all
  const leftovers = dotEntries.flatMap((name) => {
    const match = LEFTOVER.exec(name);
    return match === null ? [] : [match];
  });
  for (const match of leftovers) {
    const name = match[0];
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
  // what settling moved or removed is made durable; a folder with nothing to settle is left be
  if (settled.size > 0 || leftovers.length > 0) syncFolder(dir);
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
