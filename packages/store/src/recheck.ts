import { join } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  digestTree,
  isSkillshelfError,
  type PackageScope,
  TREE_READ_BYTES,
} from "@skillshelf/core";
import { listDotEntries } from "./_leftovers.js";
import { readStepJournal, STEP_JOURNAL } from "./_step-journal.js";
import { packagesDir } from "./scopes.js";
import type { ScopeState } from "./types.js";

/**
 * Digest every recorded copy of a scope again and compare it with its record: a copy whose
 * folder is gone is `copy_missing`, one whose tree digests otherwise `content_drift` (the
 * manifest is part of the tree, so an edited manifest is drift too), one that cannot be digested
 * gets the digest's own code, and one an interrupted operation left is `operation_pending`. Reads
 * no manifest and loads nothing: it is what `verify` needs, a tree per record.
 */
export function recheckCopies(
  environment: Parameters<typeof packagesDir>[0],
  scope: PackageScope,
  state: ScopeState,
): Diagnostic[] {
  const dir = packagesDir(environment, scope);
  const problems: Diagnostic[] = [];
  // one read buffer for every copy's files
  const scratch = Buffer.allocUnsafe(TREE_READ_BYTES);
  const step = readStepJournal(dir, scope, listDotEntries(dir));
  // the copies an unsettled step moves (every copy, when its journal cannot be read)
  const moved = new Set(
    step !== undefined && "journal" in step ? step.journal.trees.map((move) => move.id) : [],
  );
  const journaled = (id: string) => step !== undefined && ("unreadable" in step || moved.has(id));
  // a step that moves no recorded copy (a link, copies not committed yet) is pending all the same
  if (
    step !== undefined &&
    ("unreadable" in step ||
      step.journal.trees.length === 0 ||
      step.journal.trees.some((move) => state.installed[move.id] === undefined))
  )
    problems.push(
      createDiagnostic(
        "error",
        "operation_pending",
        `an interrupted change in the ${scope} scope has not been settled`,
        {
          path: "unreadable" in step ? step.unreadable : join(dir, STEP_JOURNAL),
          details: { scope },
        },
      ),
    );
  for (const id of Object.keys(state.installed).sort()) {
    const record = state.installed[id];
    if (record === undefined) continue;
    const path = join(dir, id);
    const details = { id, scope };
    const problem = (code: Diagnostic["code"], message: string, extra = {}) =>
      problems.push(
        createDiagnostic("error", code, message, { path, details: { ...details, ...extra } }),
      );
    if (journaled(id)) {
      problem(
        "operation_pending",
        `an operation on ${id} was interrupted and has not been settled`,
      );
      continue;
    }
    let observed: ReturnType<typeof digestTree>;
    try {
      // each file's own fingerprint (a second hash of every byte) only to name what drifted
      observed = digestTree(path, { scratch });
      if (observed.digest !== record.contentDigest && record.files !== undefined)
        observed = digestTree(path, { listing: true, scratch });
    } catch (error) {
      if (!isSkillshelfError(error)) throw error;
      // the walk's first step is the copy folder's lstat: nothing there, or no folder
      if (error.code === "tree_missing" || error.code === "tree_not_directory")
        problem("copy_missing", `${scope} copy of ${id} is recorded but its folder is gone`);
      else problem(error.code, error.message);
      continue;
    }
    if (observed.digest !== record.contentDigest) {
      const files = changedFiles(record.files, observed.listing);
      problem(
        "content_drift",
        `the files of ${id} changed since it was installed (content drift)${files.length === 0 ? "" : `: ${files.slice(0, 5).join(", ")}${files.length > 5 ? `, and ${files.length - 5} more` : ""}`}`,
        { recorded: record.contentDigest, observed: observed.digest, files },
      );
    }
  }
  return problems;
}

// --- internal ---

/** The paths whose fingerprints differ between two listings, added and removed ones included. */
function changedFiles(
  recorded: Readonly<Record<string, string>> | undefined,
  observed: Readonly<Record<string, string>> | undefined,
): string[] {
  if (recorded === undefined || observed === undefined) return [];
  const paths = new Set([...Object.keys(recorded), ...Object.keys(observed)]);
  const own = (listing: Readonly<Record<string, string>>, path: string) =>
    Object.hasOwn(listing, path) ? listing[path] : undefined;
  return [...paths].filter((path) => own(recorded, path) !== own(observed, path)).sort();
}
