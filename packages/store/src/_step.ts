import { rmSync } from "node:fs";
import { join } from "node:path";
import {
  codedWriteError,
  createDiagnostic,
  type Diagnostic,
  SkillshelfError,
  syncFolder,
} from "@skillshelf/core";
import { writeScopeFile } from "./_atomic.js";
import { finishLinkMoves, makeLinks, rollBackLinkMoves } from "./_link-moves.js";
import {
  assertFits,
  lockChangeOf,
  type PreparedLock,
  prepareLock,
  writeLock,
} from "./_lock-change.js";
import { syncPrevious } from "./_previous.js";
import { rememberMoves } from "./_remembered.js";
import {
  committedStateDigest,
  isStepCommitted,
  type LinkMove,
  readStepJournal,
  STEP_JOURNAL,
  type StepJournal,
  type TreeMove,
  unreadableJournal,
  writeStepJournal,
} from "./_step-journal.js";
import { backupKept, finishTreeMove, moveTreesIn, rollBackTreeMove } from "./_tree-moves.js";
import type { WriterContext } from "./_writer.js";
import { keepWrittenState, MAX_STATE_BYTES, readScopeState, serializeScopeState } from "./state.js";
import type { ScopeState, ScopeTarget } from "./types.js";

/** One step of a writer: the state it commits and everything that changes with it. */
export interface Step {
  /** What the step does, for the journal and for messages about an interrupted one. */
  readonly operation: string;
  readonly state: ScopeState;
  /** The packages and the links (by key) whose lock entries the step changes. */
  readonly ids: readonly string[];
  readonly linkKeys: readonly string[];
  readonly trees?: readonly TreeMove[] | undefined;
  readonly links?: readonly LinkMove[] | undefined;
  /**
   * Copies whose trees the writer saw match their records just before moving them aside (by
   * the stamps its cache holds): settled without being read again. The next writer, settling an
   * interrupted step, knows none and reads them.
   */
  readonly unedited?: ReadonlySet<string> | undefined;
}

/** What a committed step left. */
export interface StepResult {
  /** Where a replaced tree whose bytes differed from its record is kept, by copy id. */
  readonly kept: ReadonlyMap<string, string>;
  /** Findings of finishing it: links left alone because someone changed them, … */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Commit one step, holding the scope lock: refuse a state or lock past its reader's
 * limit (`scope_file_too_large`) before writing anything, journal the whole step, move the trees,
 * make the links, write `state.json` (the commit point), then finish: the lock, the links taken or
 * refreshed, the old trees settled, the journal removed. A failure before the commit rolls the
 * step back; after it, the step stands and is finished here or by the next writer. No space left
 * is `disk_full`.
 */
export function commitStep(context: WriterContext, step: Step): StepResult {
  const { target, fault } = context;
  const dir = context.lock.dir;
  context.lock.assertHeld();
  if (context.unsettled !== undefined) throw journalInTheWay(context.unsettled);
  const statePath = join(dir, "state.json");
  const text = serializeScopeState(step.state, target.cache);
  const change = lockChangeOf(target, step.state, { ids: step.ids, links: step.linkKeys });
  const journal: StepJournal = {
    version: 2,
    pid: process.pid,
    operation: step.operation,
    committedState: committedStateDigest(text),
    trees: [...(step.trees ?? [])],
    lock: change,
    links: [...(step.links ?? [])],
  };
  let prepared: PreparedLock;
  try {
    assertFits(statePath, text, MAX_STATE_BYTES);
    prepared = prepareLock(target, change, step.state);
    writeStepJournal(dir, journal, fault);
    moveTreesIn(dir, journal.trees, fault);
    makeLinks(target, journal.links, fault);
    // the commit is the one write that cannot be taken back: only while the lock is still ours
    context.lock.assertHeld();
    writeScopeFile({
      path: statePath,
      text,
      expected: context.stateText,
      fault,
      point: "state-temporary-written",
    });
  } catch (error) {
    settleAfterFailure(context, journal);
    throw codedWriteError(error);
  }
  keepWrittenState(target.cache, statePath, text, step.state);
  try {
    fault("committed");
    const finished = finishStep(context, journal, step.state, {
      prepared,
      verified: true,
      unedited: step.unedited,
    });
    if (target.cache !== undefined) rememberMoves(dir, journal.trees, target.cache);
    return finished;
  } catch (error) {
    throw codedWriteError(error, { committed: true });
  }
}

/**
 * Settle the step an earlier writer left (holding the scope lock, with the state just read):
 * finish it when it committed, roll it back otherwise, and say which. A journal this version
 * cannot read is reported and returned as `unsettled`; no step is committed past it.
 */
export function settleStep(
  context: Pick<WriterContext, "target" | "lock" | "state" | "stateText" | "fault">,
  dotEntries: readonly string[],
): { readonly diagnostics: Diagnostic[]; readonly unsettled?: string | undefined } {
  const dir = context.lock.dir;
  const found = readStepJournal(dir, context.target.scope, dotEntries);
  if (found === undefined) return { diagnostics: [] };
  if ("unreadable" in found)
    return { diagnostics: [unreadableJournal(found.unreadable)], unsettled: found.unreadable };
  const { journal } = found;
  const about = interrupted(dir, journal);
  if (isStepCommitted(journal, context.stateText)) {
    const prepared = prepareLock(context.target, journal.lock, context.state);
    const result = finishStep(context, journal, context.state, { prepared, verified: false });
    return {
      diagnostics: [
        ...about.map(({ path, details, what }) =>
          createDiagnostic(
            "info",
            "operation_completed",
            `finished ${what} (process ${journal.pid}); it had committed`,
            { path, details },
          ),
        ),
        ...(prepared.text === prepared.expected
          ? []
          : [
              createDiagnostic(
                "info",
                "lock_updated",
                "brought lock.json up to date after an interrupted operation",
                { path: prepared.path, details: { ids: journal.lock.packages.map(([id]) => id) } },
              ),
            ]),
        ...[...result.kept].map(([id, path]) => backupKept(path, id)),
        ...result.diagnostics,
      ],
    };
  }
  const kept = rollBackStep(context.target, dir, journal);
  return {
    diagnostics: [
      ...about.map(({ path, details, what }) =>
        createDiagnostic(
          "warning",
          "operation_rolled_back",
          `rolled back ${what} (process ${journal.pid}); it is as it was before`,
          { path, details },
        ),
      ),
      ...[...kept].map(([id, path]) => backupKept(path, id)),
    ],
  };
}

// --- internal ---

/** Everything after the commit, in the order that leaves each part settled before the journal goes. */
function finishStep(
  context: Pick<WriterContext, "target" | "lock" | "fault">,
  journal: StepJournal,
  state: ScopeState,
  options: {
    readonly prepared: PreparedLock;
    readonly verified: boolean;
    readonly unedited?: ReadonlySet<string> | undefined;
  },
): StepResult {
  const { target, fault } = context;
  const dir = context.lock.dir;
  writeLock(target, options.prepared);
  fault("lock-written");
  const diagnostics = finishLinkMoves(target, journal.links);
  const kept = new Map<string, string>();
  for (const move of journal.trees) {
    const backup = finishTreeMove(dir, move, state, {
      verified: options.verified,
      unedited: options.unedited?.has(move.id) === true,
    });
    if (backup !== undefined) kept.set(move.id, backup);
  }
  // the versions kept for rollback are durable before the journal that would redo them goes
  if (journal.trees.some((move) => state.installed[move.id]?.previous !== undefined))
    syncPrevious(dir);
  rmSync(join(dir, STEP_JOURNAL), { force: true });
  syncFolder(dir);
  fault("settled");
  return { kept, diagnostics };
}

/** Undo whatever of an uncommitted step was done; returns where changed trees are kept. */
function rollBackStep(
  target: ScopeTarget,
  dir: string,
  journal: StepJournal,
): ReadonlyMap<string, string> {
  rollBackLinkMoves(target, journal.links);
  const kept = new Map<string, string>();
  for (const move of journal.trees) {
    const backup = rollBackTreeMove(dir, move);
    if (backup !== undefined) kept.set(move.id, backup);
  }
  rmSync(join(dir, STEP_JOURNAL), { force: true });
  syncFolder(dir);
  return kept;
}

/**
 * A writer's own step failed: settle it against the state on disk, which is this step's when
 * the state was renamed into place before the failure. What cannot be settled now stays
 * journaled for the next writer.
 */
function settleAfterFailure(context: WriterContext, journal: StepJournal): void {
  try {
    const read = readScopeState(context.target.environment, context.target.scope);
    if (!read.ok) return;
    if (isStepCommitted(journal, read.value.text))
      finishStep(context, journal, read.value.state, {
        prepared: prepareLock(context.target, journal.lock, read.value.state),
        verified: true,
      });
    else rollBackStep(context.target, context.lock.dir, journal);
  } catch {
    // the journal stays: whoever takes the lock next settles the step
  }
}

/** What an interrupted step was about, for its findings: each copy it moved, else the step. */
function interrupted(
  dir: string,
  journal: StepJournal,
): { path: string; what: string; details: Record<string, unknown> }[] {
  if (journal.trees.length === 0)
    return [
      {
        path: join(dir, STEP_JOURNAL),
        what: `an interrupted ${journal.operation}`,
        details: { operation: journal.operation, links: journal.links.map((move) => move.key) },
      },
    ];
  return journal.trees.map(({ id, operation }) => ({
    path: join(dir, id),
    what: `an interrupted ${operation} of ${id}`,
    details: { id, operation },
  }));
}

function journalInTheWay(path: string): SkillshelfError {
  return new SkillshelfError(
    "journal_unreadable",
    `${path} is not a journal this version can read, so nothing in this scope can be changed safely`,
    { path },
  );
}
