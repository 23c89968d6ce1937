import { existsSync } from "node:fs";
import { join } from "node:path";
import { SkillshelfError, siblingName } from "@skillshelf/core";
import { copyBatch, type WriteBatch } from "./_batch.js";
import { assertNoBrokenDependents } from "./_dependents.js";
import { followPackageLinks } from "./_link-follow.js";
import { commitStep } from "./_step.js";
import type { LinkMove, TreeMove } from "./_step-journal.js";
import { assertCopyWritable, type WriterContext } from "./_writer.js";
import { heldTree, withTableEntries } from "./cache.js";
import type { CopyFacts, ScopeTarget, WriteResult } from "./types.js";

/** What `removePackage` removes and what it was reviewed against. */
export interface RemovePackageInput extends ScopeTarget {
  readonly id: string;
  readonly reviewed: CopyFacts;
}

/**
 * Remove a package copy (its record, its disabled flag, its folder and its links into other
 * agents' folders) in one locked step. Refuses when there is neither a record nor a folder
 * (`not_installed`), a stale plan (`stale_plan`) and breaking a loadable dependent
 * (`dependents`). The tree is moved aside, the state committed, and the moved tree deleted, unless
 * its bytes differ from its record: then it is kept and returned as `packageBackup`. A crash
 * leaves the copy and its links as before or removed.
 */
export function removePackage(input: RemovePackageInput): WriteResult {
  const { results, failure } = removePackages([input]);
  if (failure !== undefined) throw failure.error;
  return results[0] as WriteResult;
}

/**
 * Remove several copies of one scope as one commit: each is checked as `removePackage` checks it,
 * in order, and the ones before the first refused are removed under one scope lock with one
 * `state.json` write and one `lock.json` write, so a crash leaves all of them or none. A dependent
 * is judged against all of them gone at once: one the batch would break refuses the whole batch
 * (its first input), and so does an id that is no package id (checked before the disk is touched:
 * that input). Every input must name the same scope, and an id may appear once.
 */
export function removePackages(inputs: readonly RemovePackageInput[]): WriteBatch {
  return copyBatch("removePackages", inputs, assertRemovable, (context, checked) => {
    if (checked.length === 0) return [];
    const removed = checked.map(({ input }) => input);
    assertNoBrokenDependents({
      ...context.target,
      ids: removed.map((input) => input.id),
      change: "remove",
    });
    return removeTrees(
      context,
      removed,
      new Map(checked.map(({ input, value }) => [input.id, value])),
    );
  });
}

// --- internal ---

/**
 * Inside the lock: refuse a copy with neither record nor folder, or one changed since review;
 * returns the facts observed then (with a review to check against).
 */
function assertRemovable(context: WriterContext, input: RemovePackageInput): CopyFacts | undefined {
  const { id, scope } = input;
  const target = join(context.lock.dir, id);
  if (context.state.installed[id] === undefined && !existsSync(target))
    throw new SkillshelfError("not_installed", `${id} is not installed in the ${scope} scope`, {
      path: target,
    });
  return assertCopyWritable(context, id, input.reviewed);
}

/**
 * One step taking every copy of `removed` away: records, disabled flags, trees and links.
 * `observed`: each copy's facts as the lock's check just found them.
 */
function removeTrees(
  context: WriterContext,
  removed: readonly RemovePackageInput[],
  observed: ReadonlyMap<string, CopyFacts | undefined>,
): WriteResult[] {
  const dir = context.lock.dir;
  const ids = removed.map((input) => input.id);
  const gone = new Set(ids);
  let state = {
    ...context.state,
    installed: withTableEntries(
      context.state.installed,
      ids.map((id) => [id, null] as const),
    ),
    disabled: context.state.disabled.filter((other) => !gone.has(other)),
  };
  // each copy's links go with it
  const linkKeys: string[] = [];
  const links: LinkMove[] = [];
  for (const id of ids) {
    const follow = followPackageLinks(state, id, undefined);
    state = follow.state;
    linkKeys.push(...follow.changed);
    links.push(...follow.moves);
  }
  const trees = ids.map(
    (id): TreeMove => ({
      id,
      operation: "remove",
      before: context.state.installed[id] ?? null,
      after: null,
      backup: existsSync(join(dir, id)) ? siblingName(id, "removed") : null,
      staging: null,
    }),
  );
  // a tree the lock's check (or the cache, its stamps unchanged) saw match its record a moment
  // ago is deleted unread
  const unedited = new Set(
    ids.filter((id) => {
      const record = context.state.installed[id];
      const tree = observed.get(id)?.tree ?? heldTree(join(dir, id), context.target.cache)?.digest;
      return record !== undefined && tree === record.contentDigest;
    }),
  );
  const step = commitStep(context, {
    operation: "remove",
    state,
    ids,
    linkKeys,
    trees,
    links,
    unedited,
  });
  return ids.map((id, index) => {
    const kept = step.kept.get(id);
    return {
      id,
      scope: context.target.scope,
      dir: join(dir, id),
      record: undefined,
      ...(kept === undefined ? {} : { packageBackup: kept }),
      diagnostics: index === 0 ? [...context.diagnostics, ...step.diagnostics] : [],
    };
  });
}
