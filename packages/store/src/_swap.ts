import { existsSync, lstatSync, renameSync } from "node:fs";
import { join } from "node:path";
import {
  copyTree,
  createDiagnostic,
  type Diagnostic,
  digestTree,
  errnoCode,
  removeTree,
  restampTree,
  SkillshelfError,
  siblingName,
  type TreeDigest,
} from "@skillshelf/core";
import { followPackageLinks } from "./_link-follow.js";
import { SymlinkRefused } from "./_link-moves.js";
import { commitStep } from "./_step.js";
import type { LinkMove, TreeMove } from "./_step-journal.js";
import type { WriterContext } from "./_writer.js";
import { cachedTreeDigest, withTableEntries } from "./cache.js";
import { type LinkRequest, stagedLinks } from "./links.js";
import type { InstallRecord, PreviousRecord, ScopeState, WriteResult } from "./types.js";

/** One copy's part of a swap: its staged tree (a sibling in the packages folder) and records. */
export interface TreeChange {
  readonly id: string;
  readonly operation: "install" | "rollback";
  /** Sibling name of the staged tree, from `stageCopy`; `null`: the tree in place stays. */
  readonly staging: string | null;
  readonly before: InstallRecord | null;
  readonly record: InstallRecord;
  readonly enabled?: boolean | undefined;
  /** Digest the tree again once it is in place. Default: yes. */
  readonly readBack?: boolean | undefined;
  /** Links into the copy made in the same step (see `installPackage`). */
  readonly links?: readonly LinkRequest[] | undefined;
}

/**
 * The step every tree-installing writer ends with, for one copy or several (see `commitStep`):
 * each old tree moves aside and each staged tree in, the state is committed once for all of them,
 * and each old tree becomes the previous version when the new record keeps one, is deleted when it
 * matches its record, or is kept as a backup. The copies' links follow their new trees. The lock
 * recovery and settling found by the writer are reported with the first result.
 */
export function swapInTrees(context: WriterContext, changes: readonly TreeChange[]): WriteResult[] {
  const dir = context.lock.dir;
  const trees = changes.flatMap((change): TreeMove[] =>
    change.staging === null
      ? []
      : [
          {
            id: change.id,
            operation: change.operation,
            before: change.before,
            after: change.record,
            backup: existsSync(join(dir, change.id)) ? siblingName(change.id, "backup") : null,
            staging: change.staging,
          },
        ],
  );
  // each copy's links follow its new tree (a copied link is refreshed, a vanished one taken
  // away), and the links asked for are made into it
  let state = withChanges(context.state, changes);
  const linkKeys: string[] = [];
  const links: LinkMove[] = [];
  for (const { id, staging, links: asked = [] } of changes) {
    const tree = join(dir, staging ?? id);
    const follow = followPackageLinks(state, id, tree);
    const made = stagedLinks(context.target, follow.state, { id, tree }, asked);
    state = made.state;
    linkKeys.push(...follow.changed, ...made.changed);
    links.push(...follow.moves, ...made.moves);
  }
  const step = committed(() =>
    commitStep(context, {
      operation: changes[0]?.operation ?? "install",
      state,
      ids: changes.map((change) => change.id),
      linkKeys,
      trees,
      links,
    }),
  );
  return changes.map(({ id, record, readBack }, index) => {
    const target = join(dir, id);
    const backup = step.kept.get(id);
    return {
      id,
      scope: context.target.scope,
      dir: target,
      record,
      ...(backup === undefined ? {} : { packageBackup: backup }),
      diagnostics: [
        ...(index === 0 ? [...context.diagnostics, ...step.diagnostics] : []),
        ...(readBack === false ? [] : verifyInstalled(target, record)),
      ],
    };
  });
}

/**
 * Copy (or, when `disposable`, move) `source` into a fresh sibling of copy `id` and check it
 * digests to `digest` (`digest_mismatch`, the sibling removed); returns the sibling's name and
 * each file's fingerprint (for the record's `files`; none past a thousand files).
 * Refuses first when the copy's folder is a symlink (`target_unsafe`).
 */
export function stageCopy(
  context: WriterContext,
  id: string,
  source: string,
  digest: string,
  disposable = false,
): { readonly staging: string; readonly files: InstallRecord["files"] } {
  const target = join(context.lock.dir, id);
  if (lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink())
    throw new SkillshelfError("target_unsafe", `${target} is a symlink`, {
      path: target,
    });
  const staging = siblingName(id, "install");
  const path = join(context.lock.dir, staging);
  // a copy is digested from the bytes it writes; a moved tree is read once in place, stamped as
  // it is read, so the read-back of the copy it becomes need not read it again (a stamp survives
  // the tree's move to the copy's folder; a failed step leaves another tree there, which it
  // misses). A tree the plan read in place (its stamp and files known) is not read again once it
  // is here, its stamp unchanged.
  const known = disposable ? context.target.cache?.trees.get(source) : undefined;
  const moved = disposable && movedInto(source, path);
  const copied: Pick<TreeDigest, "digest" | "listing" | "stamp"> =
    moved && known?.listing !== undefined && restampTree(path, known.nodes) === known.stamp
      ? {
          digest: known.digest,
          listing: known.listing,
          stamp: { stamp: known.stamp, nodes: known.nodes },
        }
      : moved
        ? digestTree(path, { listing: true, stamp: true })
        : copyTree(source, path, { listing: true });
  context.fault("staged");
  const staged = copied.digest;
  if (copied.stamp !== undefined && staged === digest)
    context.target.cache?.trees.set(target, { ...copied.stamp, digest: staged });
  if (staged !== digest) {
    removeTree(path);
    throw new SkillshelfError(
      "digest_mismatch",
      `the files copied from ${source} digest to ${staged}, not the reviewed ${digest}`,
      {
        path: source,
        details: { expected: digest, observed: staged, copied: source },
      },
    );
  }
  // a listing of a huge tree would swell the state; verify then says less
  const listing = copied.listing ?? {};
  return {
    staging,
    files: Object.keys(listing).length <= MAX_LISTED_FILES ? listing : undefined,
  };
}

/** The most files a record lists one by one (so `verify` can name the ones that changed). */
const MAX_LISTED_FILES = 1000;

/**
 * True when the copy's tree on disk is exactly what its record says (by the stamps the writer's
 * cache holds, when they hold).
 */
export function treeMatches(context: WriterContext, id: string, record: InstallRecord): boolean {
  try {
    return (
      cachedTreeDigest(join(context.lock.dir, id), context.target.cache) === record.contentDigest
    );
  } catch {
    return false;
  }
}

export function withoutPrevious(record: InstallRecord): PreviousRecord {
  const { previous: _dropped, ...rest } = record;
  return rest;
}

// --- internal ---

/** A step whose symlink the file system refused, as a coded error: it was rolled back whole. */
function committed<T>(commit: () => T): T {
  try {
    return commit();
  } catch (error) {
    if (!(error instanceof SymlinkRefused)) throw error;
    throw new SkillshelfError(
      "link_symlink_refused",
      `the file system refused a symlink at ${error.key}; nothing was installed`,
    );
  }
}

/** The state with every change's record in (one copy of the table) and its disabled flag set. */
function withChanges(state: ScopeState, changes: readonly TreeChange[]): ScopeState {
  const disabled = new Set(state.disabled);
  for (const { id, before, enabled } of changes)
    if (enabled ?? (before === null || !state.disabled.includes(id))) disabled.delete(id);
    else disabled.add(id);
  return {
    ...state,
    installed: withTableEntries(
      state.installed,
      changes.map((change) => [change.id, change.record] as const),
    ),
    disabled: [...disabled],
  };
}

function verifyInstalled(target: string, record: InstallRecord): Diagnostic[] {
  const observed = digestTree(target).digest;
  return observed === record.contentDigest
    ? []
    : [
        createDiagnostic(
          "error",
          "verification",
          `${target} reads back with digest ${observed}, not ${record.contentDigest}`,
          { path: target, details: { expected: record.contentDigest, observed } },
        ),
      ];
}

/** Move a disposable staged folder into place; false when it lives on another file system. */
function movedInto(source: string, path: string): boolean {
  try {
    renameSync(source, path);
    return true;
  } catch (error) {
    if (errnoCode(error) === "EXDEV") return false;
    throw error;
  }
}
