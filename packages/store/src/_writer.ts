import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Diagnostic, SkillshelfError } from "@skillshelf/core";
import { writeScopeFile } from "./_atomic.js";
import { type FaultHook, faultHook } from "./_faults.js";
import { assertPackageId } from "./_id.js";
import { journalFilesOf, listDotEntries, settleScope } from "./_journal.js";
import { finishLockChange, markLockChanges, settleLockChanges } from "./_lock-change.js";
import { assertFactsCurrent, observeCopyFacts } from "./facts.js";
import { type ScopeLock, withScopeLock } from "./lock.js";
import { readLockFile } from "./lockfile.js";
import { keepWrittenState, readScopeState, serializeScopeState } from "./state.js";
import type { CopyFacts, ReadScopeState, ScopeState, ScopeTarget } from "./types.js";

/** What a writer's body works with, inside the scope lock. */
export interface WriterContext {
  readonly target: ScopeTarget;
  readonly lock: ScopeLock;
  readonly state: ScopeState;
  /** `state.json`'s text as read inside the lock; the state write refuses if it changed. */
  readonly stateText: string | undefined;
  readonly fault: FaultHook;
  /** Findings so far: lock recovery and settled leftovers. */
  readonly diagnostics: Diagnostic[];
}

/**
 * The frame every writer runs in: refuse an id that is not a package id (`package_id_invalid`),
 * take the scope lock, read the state strictly (an unreadable
 * state is `state_invalid` and is never overwritten), settle what earlier writers left, observe
 * the copy's facts and refuse with `stale_plan` if they differ from the reviewed ones (when given),
 * then run `body`.
 */
export function runWriter<T>(
  input: ScopeTarget & { readonly id?: string; readonly reviewed?: CopyFacts },
  body: (context: WriterContext) => T,
): T {
  if (input.id !== undefined) assertPackageId(input.id);
  const fault = faultHook(input);
  return withScopeLock(input, (lock) => {
    fault("locked");
    const diagnostics: Diagnostic[] = [...lock.diagnostics];
    // settling moves trees and journals only, never state.json: one read serves both
    const current = readValidState(input);
    assertLockReadable(input);
    // one listing of the folder serves both: settling journals adds no marker
    const dotEntries = listDotEntries(lock.dir);
    diagnostics.push(...settleScope(lock.dir, current.state, dotEntries));
    diagnostics.push(...settleLockChanges(input, current.state, dotEntries));
    const context: WriterContext = {
      target: { environment: input.environment, scope: input.scope, cache: input.cache },
      lock,
      state: current.state,
      stateText: current.text,
      fault,
      diagnostics,
    };
    if (input.id !== undefined) assertCopyWritable(context, input.id, input.reviewed);
    return body(context);
  });
}

/**
 * Inside a writer, before changing copy `id`: refuse while a journal this version cannot read is
 * left for it (`journal_unreadable`), and, when `reviewed` is given, refuse with `stale_plan` if
 * the copy's facts now differ from the reviewed ones.
 */
export function assertCopyWritable(
  context: WriterContext,
  id: string,
  reviewed: CopyFacts | undefined,
): void {
  assertNoForeignJournal(context.lock.dir, id);
  if (reviewed === undefined) return;
  const { target, state, stateText } = context;
  const observed = observeCopyFacts(
    { ...target, id },
    {
      ok: true,
      value: { path: join(context.lock.dir, "state.json"), state, text: stateText },
      diagnostics: [],
    },
  );
  assertFactsCurrent({ scope: target.scope, id, reviewed, observed });
}

/**
 * Run the journaled part of a writer; if it throws before committing, roll back what it moved
 * (by settling the scope from its journal) and rethrow, so a failed writer leaves the scope as
 * before.
 */
export function commitOrRollBack<T>(context: WriterContext, commit: () => T): T {
  try {
    return commit();
  } catch (error) {
    settleScope(context.lock.dir, context.state);
    settleLockChanges(context.target, context.state);
    throw error;
  }
}

/**
 * Commit a writer's change to copies `ids` (and to the links at `links`): check the scope lock is still ours, mark each lock
 * change, write `state.json` atomically (the commit point, one for all of them), then bring
 * `lock.json` in line in one write (see `markLockChanges`). A lock that cannot be updated is
 * reported in the context's diagnostics; the commit stands.
 */
export function commitState(
  context: WriterContext,
  state: ScopeState,
  ids: readonly string[],
  links: readonly string[] = [],
): void {
  context.lock.assertHeld();
  const entries = markLockChanges(context.target, { ids, links }, state, context.fault);
  context.fault("lock-marked");
  const path = join(context.lock.dir, "state.json");
  const text = serializeScopeState(state, context.target.cache);
  writeScopeFile({
    path,
    text,
    expected: context.stateText,
    fault: context.fault,
    point: "state-temporary-written",
  });
  keepWrittenState(context.target.cache, path, text, state);
  context.fault("committed");
  context.diagnostics.push(...finishLockChange(context.target, entries, state));
  context.fault("lock-written");
}

// --- internal ---

function assertLockReadable(target: ScopeTarget): void {
  const lock = readLockFile(target.environment, target.scope, target.cache);
  if (lock.ok) return;
  const [first] = lock.diagnostics;
  throw new SkillshelfError("lock_invalid", first?.message ?? "the scope's lock cannot be read", {
    path: first?.path,
    details: { diagnostics: lock.diagnostics },
  });
}

function readValidState(target: ScopeTarget): ReadScopeState {
  const result = readScopeState(target.environment, target.scope, target.cache);
  if (result.ok) return result.value;
  const [first] = result.diagnostics;
  throw new SkillshelfError("state_invalid", first?.message ?? "the scope's state cannot be read", {
    path: first?.path,
    hint: "fix or move the state file aside; nothing will overwrite it until then",
    details: { diagnostics: result.diagnostics },
  });
}

/** Settling leaves only a journal it could not read; a writer must not write over it. */
function assertNoForeignJournal(dir: string, id: string): void {
  const path = journalFilesOf(dir, id).find((file) => existsSync(file));
  if (path !== undefined)
    throw new SkillshelfError(
      "journal_unreadable",
      `${path} is not a journal this version can read, so ${id} cannot be changed safely`,
      { path, hint: "look at the file, move it out of the packages folder, then retry" },
    );
}
