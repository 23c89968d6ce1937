import { join } from "node:path";
import { codedWriteError, type Diagnostic, SkillshelfError, syncFolder } from "@skillshelf/core";
import { type FaultHook, faultHook } from "./_faults.js";
import { assertPackageId } from "./_id.js";
import { listDotEntries, removeLeftovers } from "./_leftovers.js";
import { settlePrevious } from "./_previous.js";
import { settleStep } from "./_step.js";
import { assertFactsCurrent, observeCopyFacts, observeManyCopyFacts } from "./facts.js";
import { type ScopeLock, withScopeLock } from "./lock.js";
import { readLockFileAsWritten } from "./lockfile.js";
import { readScopeState } from "./state.js";
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
  /** A journal left that this version cannot settle: no step commits past it. */
  readonly unsettled?: string | undefined;
  /** The copies' facts `withCopiesObserved` observed, by id. */
  readonly observed?: ReadonlyMap<string, CopyFacts> | undefined;
}

/**
 * The frame every writer runs in: refuse an id that is not a package id (`package_id_invalid`),
 * take the scope lock (refusing library folders that are symlinks, `library_symlinked`), read the
 * state strictly (an unreadable state is `state_invalid` and is never overwritten), settle the
 * step an earlier writer left and its leftovers, observe the copy's facts and refuse with
 * `stale_plan` if they differ from the reviewed ones (when given), then run `body`.
 */
export function runWriter<T>(
  input: ScopeTarget & { readonly id?: string; readonly reviewed?: CopyFacts },
  body: (context: WriterContext) => T,
): T {
  if (input.id !== undefined) assertPackageId(input.id);
  const fault = faultHook(input);
  try {
    return locked(input, fault, body);
  } catch (error) {
    throw codedWriteError(error);
  }
}

/**
 * Inside a writer, before changing copy `id`: when `reviewed` is given, refuse with `stale_plan`
 * if the copy's facts now differ from the reviewed ones; returns the facts observed then (those
 * `withCopiesObserved` found of it, when it did).
 */
export function assertCopyWritable(
  context: WriterContext,
  id: string,
  reviewed: CopyFacts | undefined,
): CopyFacts | undefined {
  if (reviewed === undefined) return undefined;
  const observed =
    context.observed?.get(id) ?? observeCopyFacts({ ...context.target, id }, stateRead(context));
  assertFactsCurrent({ scope: context.target.scope, id, reviewed, observed });
  return observed;
}

/**
 * Inside a writer, before checking several copies in turn: the context with the facts of those
 * with reviewed facts observed at once (one reading of the scope, however many), for
 * `assertCopyWritable`. For the checks only: what the writer then changes, it has not observed.
 */
export function withCopiesObserved(
  context: WriterContext,
  copies: readonly { readonly id: string; readonly reviewed?: CopyFacts | undefined }[],
): WriterContext {
  const ids = copies.flatMap((copy) => (copy.reviewed === undefined ? [] : [copy.id]));
  if (ids.length === 0) return context;
  return {
    ...context,
    observed: observeManyCopyFacts({ ...context.target, ids }, stateRead(context)),
  };
}

// --- internal ---

/** The state the writer read inside its lock, as a read of it returns it. */
function stateRead(context: WriterContext): ReturnType<typeof readScopeState> {
  const { state, stateText } = context;
  return {
    ok: true,
    value: { path: join(context.lock.dir, "state.json"), state, text: stateText },
    diagnostics: [],
  };
}

/** `runWriter` inside the scope lock. */
function locked<T>(
  input: ScopeTarget & { readonly id?: string; readonly reviewed?: CopyFacts },
  fault: FaultHook,
  body: (context: WriterContext) => T,
): T {
  return withScopeLock(input, (lock) => {
    fault("locked");
    const diagnostics: Diagnostic[] = [...lock.diagnostics];
    // settling never writes state.json: one read serves both
    const current = readValidState(input);
    assertLockReadable(input);
    const base = {
      target: { environment: input.environment, scope: input.scope, cache: input.cache },
      lock,
      state: current.state,
      stateText: current.text,
      fault,
    };
    // one listing of the folder serves both: settling a step adds no leftover
    const dotEntries = listDotEntries(lock.dir);
    const settled = settleStep(base, dotEntries);
    const leftovers = removeLeftovers(lock.dir, dotEntries);
    diagnostics.push(...settled.diagnostics, ...leftovers);
    settlePrevious(lock.dir, current.state);
    // what settling removed is made durable; a folder with nothing to settle is left be
    if (leftovers.length > 0) syncFolder(lock.dir);
    const context: WriterContext = { ...base, diagnostics, unsettled: settled.unsettled };
    if (input.id !== undefined) assertCopyWritable(context, input.id, input.reviewed);
    return body(context);
  });
}

function assertLockReadable(target: ScopeTarget): void {
  const lock = readLockFileAsWritten(target.environment, target.scope, target.cache);
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
    details: { diagnostics: result.diagnostics },
  });
}
