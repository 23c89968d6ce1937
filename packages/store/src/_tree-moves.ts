import { existsSync, renameSync } from "node:fs";
import { join } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  digestTree,
  removeTree,
  siblingName,
} from "@skillshelf/core";
import { discard } from "./_discard.js";
import type { FaultHook } from "./_faults.js";
import { dropPrevious, keepAsPrevious } from "./_previous.js";
import { assertPlainEntry } from "./_scope-folders.js";
import type { TreeMove } from "./_step-journal.js";
import type { InstallRecord, ScopeState } from "./types.js";

// The package trees a step moves (see `_step-journal.ts`): moved before the commit, and settled
// after it, forward or back.

/** Before the commit: each old tree aside to its backup, each staged tree into the copy's folder. */
export function moveTreesIn(dir: string, moves: readonly TreeMove[], fault: FaultHook): void {
  for (const { id, backup, staging } of moves) {
    if (backup !== null) {
      renameSync(join(dir, id), join(dir, backup));
      fault("moved-old");
    }
    if (staging !== null) {
      renameSync(join(dir, staging), join(dir, id));
      fault("moved-new");
    }
  }
}

/**
 * After a step committed: the old tree becomes the copy's previous version when the state keeps
 * one (`verified`: the writer knows the old tree matches its record, else it is digested first),
 * is deleted when it matches its record (`unedited`: the writer saw that it did), or is kept as
 * a backup; returns where a backup is kept.
 */
export function finishTreeMove(
  dir: string,
  move: TreeMove,
  state: ScopeState,
  known: { readonly verified: boolean; readonly unedited: boolean },
): string | undefined {
  const { verified } = known;
  const { id, backup } = move;
  const previous = state.installed[id]?.previous;
  const aside = backup === null ? undefined : join(dir, backup);
  if (aside === undefined || !existsSync(aside)) {
    if (previous === undefined) dropPrevious(dir, id);
    return undefined;
  }
  assertPlainEntry(aside, "folder");
  if (previous !== undefined && (verified || digestOrUndefined(aside) === previous.contentDigest)) {
    keepAsPrevious(dir, id, aside);
    return undefined;
  }
  if (previous === undefined) dropPrevious(dir, id);
  return keepIfChanged(dir, id, aside, known.unedited ? "unedited" : move.before);
}

/**
 * After a step that did not commit: the tree the step put in place goes (kept as a backup when
 * its bytes are not the ones it installed) and the old tree comes back; returns where a backup is
 * kept.
 */
export function rollBackTreeMove(dir: string, move: TreeMove): string | undefined {
  const { id, backup } = move;
  const target = join(dir, id);
  const aside = backup === null ? undefined : join(dir, backup);
  const asideExists = aside !== undefined && existsSync(aside);
  let kept: string | undefined;
  if (existsSync(target) && (asideExists || backup === null)) {
    assertPlainEntry(target, "folder");
    kept = keepIfChanged(dir, id, target, move.after);
  }
  if (aside !== undefined && asideExists) {
    assertPlainEntry(aside, "folder");
    renameSync(aside, target);
  }
  if (move.staging !== null) removeTree(join(dir, move.staging));
  return kept;
}

/**
 * Where the tree that counts for a copy is while a step is unsettled: the copy's folder, unless
 * an uncommitted step has moved the old tree aside (then that) or put a new tree in place of
 * nothing (then there is none).
 */
export function journaledTreeDir(
  dir: string,
  move: TreeMove,
  committed: boolean,
): string | undefined {
  const target = join(dir, move.id);
  if (committed) return move.after === null ? undefined : target;
  if (move.backup !== null && existsSync(join(dir, move.backup))) return join(dir, move.backup);
  return move.backup === null ? undefined : target;
}

/** The finding for a tree kept because its bytes differ from its record. */
export function backupKept(path: string, id: string): Diagnostic {
  return createDiagnostic(
    "warning",
    "backup_kept",
    `kept ${path}: its files differed from what was installed for ${id}`,
    { path, details: { id } },
  );
}

// --- internal ---

/**
 * Delete the tree at `path` if it matches `record` (or is known `unedited`); otherwise move it to
 * a `.<id>.backup-…` sibling (unless it already is one) and return where it is kept.
 */
function keepIfChanged(
  dir: string,
  id: string,
  path: string,
  record: InstallRecord | null | "unedited",
): string | undefined {
  if (
    record === "unedited" ||
    (record !== null && digestOrUndefined(path) === record.contentDigest)
  ) {
    discard(dir, id, path);
    return undefined;
  }
  if (/\.(backup|removed)-\d+-[0-9a-f]+$/.test(path)) return path;
  const kept = join(dir, siblingName(id, "backup"));
  renameSync(path, kept);
  return kept;
}

function digestOrUndefined(path: string): string | undefined {
  try {
    return digestTree(path).digest;
  } catch {
    return undefined;
  }
}
