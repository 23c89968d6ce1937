import { copyFileSync, mkdirSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import {
  copyTree,
  createDiagnostic,
  type Diagnostic,
  errnoCode,
  isFolderLike,
  isSkillshelfError,
  removeTree,
  scopeAnchor,
  scopeLibraryDir,
  siblingName,
} from "@skillshelf/core";
import type { FaultHook } from "./_faults.js";
import {
  assertLinkFolderSafe,
  foundAt,
  isOurLink,
  linkText,
  manifestAtTop,
} from "./_link-files.js";
import type { LinkRecord } from "./_record-types.js";
import type { LinkMove } from "./_step-journal.js";
import type { ScopeTarget } from "./types.js";

// The link files a step changes in agents' folders (see `_step-journal.ts`). A link's own path
// only ever holds a whole link: a copy is written to a temporary sibling and renamed into place,
// and taken away by renaming it aside first, so a crash leaves a sibling the journal names.

/** A move of the link at `key` with a fresh temporary sibling; `replaces`: a refreshed copy's old digest. */
export function linkMove(
  op: LinkMove["op"],
  key: string,
  record: LinkRecord,
  replaces?: string,
): LinkMove {
  return {
    key,
    op,
    record,
    ...(replaces === undefined ? {} : { replaces }),
    temporary: siblingName(basename(key), "link"),
  };
}

/**
 * A symlink the file system refused (as Windows does without the privilege): the step is rolled
 * back and the writer makes that link as a copy instead.
 */
export class SymlinkRefused extends Error {
  constructor(readonly key: string) {
    super(`a symlink cannot be made at ${key}`);
  }
}

/** Before the commit: make every `make` link of a step. Throws `SymlinkRefused` for a refused symlink. */
export function makeLinks(target: ScopeTarget, moves: readonly LinkMove[], fault: FaultHook): void {
  const place = placeOf(target);
  for (const move of moves) {
    if (move.op !== "make") continue;
    const { path, live, temporary } = paths(place, move);
    mkdirSync(dirname(path), { recursive: true });
    if (move.record.mode === "copy") copyInto(path, live, move.record, temporary);
    else
      try {
        symlinkSync(linkText(path, live), path, isFolderLike(move.record.kind) ? "dir" : "file");
      } catch (error) {
        if (["EPERM", "ENOTSUP", "EOPNOTSUPP", "EINVAL"].includes(errnoCode(error) ?? ""))
          throw new SymlinkRefused(move.key);
        throw error;
      }
    fault("linked");
  }
}

/**
 * After a step committed, and again by whoever settles it: each `take` link goes if it is still
 * as Skillshelf made it, each `refresh` copy is made again from the live tree unless it already
 * is; a link changed by someone else is left as it is and reported.
 */
export function finishLinkMoves(target: ScopeTarget, moves: readonly LinkMove[]): Diagnostic[] {
  const place = placeOf(target);
  const diagnostics: Diagnostic[] = [];
  for (const move of moves) {
    if (move.op === "make") continue;
    const { path, live, temporary } = paths(place, move);
    removeTree(temporary);
    const unsafe = unsafeFolder(place.base, path);
    if (unsafe !== undefined) {
      diagnostics.push(unsafe);
      continue;
    }
    const found = foundAt(path);
    if (move.op === "refresh" && isOurLink(path, live, move.record)) continue;
    const before = move.op === "take" ? move.record : { ...move.record, digest: move.replaces };
    const ours = found.kind !== "nothing" && isOurLink(path, live, before as LinkRecord);
    if (found.kind !== "nothing" && !ours) {
      diagnostics.push(leftAlone(path, move.record));
      continue;
    }
    if (ours) takeAt(path, temporary);
    if (move.op === "refresh") copyInto(path, live, move.record, temporary);
  }
  return diagnostics;
}

/** After a step that did not commit: each link it made goes again, if it is still as it was made. */
export function rollBackLinkMoves(target: ScopeTarget, moves: readonly LinkMove[]): void {
  const place = placeOf(target);
  for (const move of moves) {
    const { path, live, temporary } = paths(place, move);
    removeTree(temporary);
    if (move.op !== "make" || unsafeFolder(place.base, path) !== undefined) continue;
    // a refused symlink is made as a copy instead: either is this step's
    if (
      isOurLink(path, live, move.record) ||
      isOurLink(path, live, { ...move.record, mode: "copy" })
    )
      takeAt(path, temporary);
  }
}

// --- internal ---

interface LinkPlace {
  readonly base: string;
  readonly library: string;
}

function placeOf(target: ScopeTarget): LinkPlace {
  return {
    base: scopeAnchor(target.environment, target.scope),
    library: scopeLibraryDir(target.environment, target.scope),
  };
}

function paths(place: LinkPlace, move: LinkMove) {
  const path = join(place.base, move.key);
  return {
    path,
    live: join(place.library, move.record.target),
    temporary: join(dirname(path), move.temporary),
  };
}

/** Copy what a link exposes into a temporary sibling, then rename it into place. */
function copyInto(path: string, live: string, record: LinkRecord, temporary: string): void {
  removeTree(temporary);
  if (isFolderLike(record.kind))
    copyTree(live, temporary, record.bare === true ? { skip: manifestAtTop } : {});
  else copyFileSync(live, temporary);
  renameSync(temporary, path);
}

/** Take a link away: a symlink at once, a copy renamed aside first. */
function takeAt(path: string, temporary: string): void {
  if (foundAt(path).kind === "symlink") {
    rmSync(path, { force: true });
    return;
  }
  renameSync(path, temporary);
  removeTree(temporary);
}

function unsafeFolder(base: string, path: string): Diagnostic | undefined {
  try {
    assertLinkFolderSafe(base, path);
    return undefined;
  } catch (error) {
    if (!isSkillshelfError(error)) throw error;
    return createDiagnostic("warning", error.code, error.message, { path: error.path ?? path });
  }
}

function leftAlone(path: string, record: LinkRecord): Diagnostic {
  return createDiagnostic(
    "warning",
    record.mode === "copy" ? "link_changed" : "link_repointed",
    `${path} was changed since Skillshelf made it, so it is left as it is`,
    { path },
  );
}
