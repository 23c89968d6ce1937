import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  type PackageScope,
  parseJsonDocument,
  readRegularFile,
  sha256,
} from "@skillshelf/core";
import { writeScopeFile } from "./_atomic.js";
import type { FaultHook } from "./_faults.js";
import { journalSchema } from "./_journal-schema.js";
import { isLinkKey } from "./_link-files.js";
import type { InstallRecord, LinkRecord, LockedLink, LockedPackage } from "./_record-types.js";

// One step of a writer, journaled before it changes anything: the trees it moves, the
// links it makes or takes in agents' folders, the lock entries it changes and the state it
// commits. `state.json` is the commit point. Whoever holds the scope lock next settles the step:
// forward when the state is the one the journal names, back otherwise, so the state, the lock,
// the trees and the links always end up as one step left them or as they were before it.

/** What one step intends, written before it changes anything (`journalSchema` reads exactly it). */
export type StepJournal = {
  version: 2;
  pid: number;
  operation: string;
  committedState: string;
  trees: TreeMove[];
  lock: LockChange;
  links: LinkMove[];
};

/** One copy's tree moving in a step: the old tree aside to `backup`, the staged tree in from `staging`. */
export type TreeMove = {
  id: string;
  operation: "install" | "remove" | "rollback";
  before: InstallRecord | null;
  after: InstallRecord | null;
  backup: string | null;
  staging: string | null;
};

/**
 * One link file changing in a step (`key` relative to the scope's link base). A `make` is done
 * before the commit and taken away again if the step does not commit; a `take` or a `refresh`
 * (a copied link made again from the new tree) is done after the commit, and done again by
 * whoever settles a committed step. `temporary` is the sibling a copy is written to or moved
 * aside to, so that the link's own path only ever holds a whole link.
 */
export type LinkMove = {
  key: string;
  op: "make" | "take" | "refresh";
  record: LinkRecord;
  temporary: string;
  /** A refreshed copy: the digest the copy had before, so it is still recognised as ours. */
  replaces?: string | undefined;
};

/** The lock entries one step changes: packages by id, links by key (`null`: left out). */
export type LockChange = {
  packages: [string, LockedPackage | null][];
  links: [string, LockedLink | null][];
};

/** The journal file: one at a time, since every step holds the scope lock and settles the last first. */
export const STEP_JOURNAL = ".@step.journal.json";

// journals an earlier version of Skillshelf wrote; this version cannot settle them
const FOREIGN_JOURNAL = /^\.(.+\.journal\.json|@commit\.lock-change\.json)$/;

/** True when a step that wrote `journal` committed: the state's text is the one it committed. */
export function isStepCommitted(journal: StepJournal, stateText: string | undefined): boolean {
  return stateText !== undefined && sha256(Buffer.from(stateText)) === journal.committedState;
}

/** The digest a journal names for the state text a step commits. */
export function committedStateDigest(stateText: string): string {
  return sha256(Buffer.from(stateText));
}

/** Write a step's journal, durable once this returns. */
export function writeStepJournal(dir: string, journal: StepJournal, fault: FaultHook): void {
  writeScopeFile({
    path: join(dir, STEP_JOURNAL),
    text: `${JSON.stringify(journal)}\n`,
    expected: undefined,
    fault,
    point: "journal-temporary-written",
  });
  fault("journaled");
}

/**
 * The step journal left in a scope's packages folder, given the names of its dot entries:
 * `undefined` when there is none, `unreadable` (with its path) for a journal this version cannot
 * settle (damaged, forged, or written by an earlier version), which no writer goes past.
 */
export function readStepJournal(
  dir: string,
  scope: PackageScope,
  dotEntries: readonly string[],
):
  | { readonly journal: StepJournal; readonly path: string }
  | { readonly unreadable: string }
  | undefined {
  const foreign = dotEntries.find((name) => name !== STEP_JOURNAL && FOREIGN_JOURNAL.test(name));
  if (foreign !== undefined) return { unreadable: join(dir, foreign) };
  if (!dotEntries.includes(STEP_JOURNAL)) return undefined;
  const path = join(dir, STEP_JOURNAL);
  try {
    const parsed = parseJsonDocument(readRegularFile(path, MAX_JOURNAL_BYTES).toString("utf8"));
    const journal = parsed.ok ? journalSchema.safeParse(parsed.value) : undefined;
    if (journal?.success === true && journal.data.links.every((move) => isLinkKey(scope, move)))
      return { journal: journal.data, path };
  } catch {
    // reported like any journal this reader cannot use
  }
  return { unreadable: path };
}

/** True when a scope's packages folder holds a step journal (of any version): a step is unsettled. */
export function hasStepJournal(dir: string): boolean {
  return existsSync(join(dir, STEP_JOURNAL));
}

/** The finding for a journal no writer can settle. */
export function unreadableJournal(path: string): Diagnostic {
  return createDiagnostic(
    "warning",
    "journal_unreadable",
    `${path} is not a journal this version can read`,
    { path },
  );
}

// a step of a few thousand copies journals a few megabytes
const MAX_JOURNAL_BYTES = 64 * 1024 * 1024;

/**
 * The copies an unsettled step moves, by id, and whether it committed (for readers, given the
 * folder's dot entries and the state's text); an unreadable journal is reported in `diagnostics`.
 */
export function pendingTreeMoves(
  dir: string,
  scope: PackageScope,
  dotEntries: readonly string[],
  stateText: string | undefined,
  diagnostics: Diagnostic[],
): { readonly moves: ReadonlyMap<string, TreeMove>; readonly committed: boolean } {
  const found = readStepJournal(dir, scope, dotEntries);
  if (found === undefined) return { moves: new Map(), committed: false };
  if ("unreadable" in found) {
    diagnostics.push(unreadableJournal(found.unreadable));
    return { moves: new Map(), committed: false };
  }
  return {
    moves: new Map(found.journal.trees.map((move) => [move.id, move])),
    committed: isStepCommitted(found.journal, stateText),
  };
}
