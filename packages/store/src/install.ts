import { existsSync, lstatSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  copyTree,
  createDiagnostic,
  type Diagnostic,
  digestTree,
  errnoCode,
  isInside,
  type PackageKind,
  SkillshelfError,
  siblingName,
  syncFolder,
} from "@skillshelf/core";
import { journalPath, keepIfChanged, writeJournal } from "./_journal.js";
import { dropPrevious, keepAsPrevious, previousDir } from "./_previous.js";
import { commitOrRollBack, commitState, runWriter, type WriterContext } from "./_writer.js";
import { withTableEntry } from "./cache.js";
import { readPackageManifest } from "./manifest.js";
import { packagesDir } from "./scopes.js";
import type {
  CopyFacts,
  InstallRecord,
  PackageManifest,
  PackageOrigin,
  PreviousRecord,
  ScopeTarget,
  WriteResult,
} from "./types.js";

/** What `installPackage` installs and what it was reviewed against. */
export interface InstallPackageInput extends ScopeTarget {
  /**
   * A staged package folder and its tree digest (from `sources`' `stageSource`, or any folder).
   * `disposable`: the caller has no further use for the folder, so the writer may move it in
   * rather than copy it (it still checks the digest once it is in place).
   */
  readonly staged: {
    readonly dir: string;
    readonly digest: string;
    readonly disposable?: boolean | undefined;
  };
  readonly origin: PackageOrigin;
  /** The copy's facts as the plan saw them (`observeCopyFacts`). */
  readonly reviewed: CopyFacts;
  /** What an index pinned: each given field must match the staged package. */
  readonly expected?: {
    readonly id?: string | undefined;
    readonly kind?: PackageKind | undefined;
    readonly version?: string | undefined;
    readonly digest?: string | undefined;
  };
  /**
   * Keep the replaced tree as the copy's previous version (an update), so `rollbackPackage` can
   * restore it. Only a tree that matches its record is kept; a changed one is a backup as always.
   */
  readonly keepPrevious?: boolean | undefined;
  /** Whether the copy is enabled afterwards. Default: a fresh install is, a replacement keeps its flag. */
  readonly enabled?: boolean | undefined;
  /** Install time for the record. Default: now. */
  readonly now?: Date | undefined;
}

/**
 * Install (or replace) a package copy in a scope. Outside the lock it reads the staged manifest
 * (`manifest_invalid`) and checks it against `expected` (`identity_mismatch`, `digest_mismatch`).
 * Inside the lock it re-checks the reviewed facts (`stale_plan`), refuses a kind change
 * (`kind_change`) and a symlinked target (`target_unsafe`), copies the staged tree into a sibling
 * folder and verifies its digest, then swaps it in with renames and commits by writing
 * `state.json` atomically. A fresh install clears a stale disabled flag; a replacement keeps it. A
 * replaced tree whose bytes differ from its record is kept as a backup. A crash at any point
 * leaves the scope as before or as after; the next writer settles what is left.
 */
export function installPackage(input: InstallPackageInput): WriteResult {
  const manifest = stagedManifest(input);
  const id = manifest.id;
  const dir = packagesDir(input.environment, input.scope);
  const source = resolve(input.staged.dir);
  if (isInside(source, dir) || isInside(dir, source))
    throw new SkillshelfError(
      "source_overlap",
      `${source} overlaps the ${input.scope} packages folder ${dir}`,
      {
        path: source,
        hint: "stage the package somewhere else first",
      },
    );
  return runWriter({ ...input, id }, (context) => {
    const before = context.state.installed[id] ?? null;
    if (before !== null && before.kind !== manifest.kind)
      throw new SkillshelfError(
        "kind_change",
        `${id} is installed as a ${before.kind} package and the new one is a ${manifest.kind} package`,
        {
          hint: "a package's kind cannot change in place; remove it first",
        },
      );
    const staging = stageCopy(context, id, source, input.staged.digest, input.staged.disposable);
    const previous =
      input.keepPrevious === true && before !== null && treeMatches(context, id, before)
        ? withoutPrevious(before)
        : undefined;
    const record: InstallRecord = {
      kind: manifest.kind,
      ...(manifest.version === undefined ? {} : { version: manifest.version }),
      format: manifest.format,
      installedAt: (input.now ?? new Date()).toISOString(),
      origin: input.origin,
      contentDigest: input.staged.digest,
      trust: manifest.format === "claude-code" ? "foreign" : "trusted",
      ...(manifest.requires.length === 0 ? {} : { requires: [...manifest.requires] }),
      ...(previous === undefined ? {} : { previous }),
    };
    return swapInTree(context, {
      id,
      operation: "install",
      staging,
      before,
      record,
      enabled: input.enabled,
    });
  });
}

/** What `rollbackPackage` restores and what it was reviewed against. */
export interface RollbackPackageInput extends ScopeTarget {
  readonly id: string;
  readonly reviewed: CopyFacts;
}

/**
 * Restore the version an update replaced, in one locked step: the kept tree (verified against
 * its digest) becomes the copy again with its old record, and the tree it replaces becomes the
 * previous version in turn, so a second rollback goes forward again. Refuses a copy with nothing
 * kept (`no_previous_version`) and a stale plan (`stale_plan`).
 */
export function rollbackPackage(input: RollbackPackageInput): WriteResult {
  const { id, scope } = input;
  return runWriter(input, (context) => {
    const before = context.state.installed[id] ?? null;
    const kept = previousDir(context.lock.dir, id);
    const previous = before?.previous;
    if (before === null || previous === undefined || !existsSync(kept))
      throw new SkillshelfError(
        "no_previous_version",
        `${scope}:${id} has no previous version to restore`,
        { path: join(context.lock.dir, id) },
      );
    const staging = stageCopy(context, id, kept, previous.contentDigest);
    const record: InstallRecord = {
      ...previous,
      ...(treeMatches(context, id, before) ? { previous: withoutPrevious(before) } : {}),
    };
    return swapInTree(context, { id, operation: "rollback", staging, before, record });
  });
}

// --- internal ---

function stagedManifest(input: InstallPackageInput): PackageManifest {
  const read = readPackageManifest(input.staged.dir);
  if (!read.ok)
    throw new SkillshelfError(
      "manifest_invalid",
      `the package at ${input.staged.dir} has an invalid manifest`,
      {
        path: input.staged.dir,
        hint: "run skillshelf validate on it and fix what it reports",
        details: { diagnostics: read.diagnostics },
      },
    );
  const manifest = read.value;
  const expected = input.expected ?? {};
  for (const [fact, want, got] of [
    ["id", expected.id, manifest.id],
    ["kind", expected.kind, manifest.kind],
    ["version", expected.version, manifest.version],
  ] as const)
    if (want !== undefined && want !== got)
      throw new SkillshelfError(
        "identity_mismatch",
        `the staged package's ${fact} is ${String(got)}, but ${String(want)} was pinned`,
        {
          path: input.staged.dir,
          hint: "the source no longer holds what the index pinned; update the index or pick another source",
          details: { fact, expected: want, observed: got },
        },
      );
  if (expected.digest !== undefined && expected.digest !== input.staged.digest)
    throw new SkillshelfError(
      "digest_mismatch",
      `the staged package's digest is ${input.staged.digest}, but ${expected.digest} was pinned`,
      {
        path: input.staged.dir,
        hint: "the source's files changed since the index pinned them; review the change, then update the pin",
        details: { expected: expected.digest, observed: input.staged.digest },
      },
    );
  return manifest;
}

/**
 * The journaled swap every tree-installing writer ends with: journal, move the old tree aside,
 * move the staged tree in, commit the state, then settle the old tree: the previous version when
 * the new record keeps one, deleted when it matches its record, else kept as a backup.
 */
function swapInTree(
  context: WriterContext,
  change: {
    readonly id: string;
    readonly operation: "install" | "rollback";
    readonly staging: string;
    readonly before: InstallRecord | null;
    readonly record: InstallRecord;
    readonly enabled?: boolean | undefined;
  },
): WriteResult {
  const { id, staging, before, record } = change;
  const dir = context.lock.dir;
  const target = join(dir, id);
  if (lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink()) {
    rmSync(join(dir, staging), { recursive: true, force: true });
    throw new SkillshelfError("target_unsafe", `${target} is a symlink`, {
      path: target,
      hint: "remove the symlink, then install",
    });
  }
  const backup = existsSync(target) ? siblingName(id, "backup") : null;
  const others = context.state.disabled.filter((disabled) => disabled !== id);
  const enabled = change.enabled ?? (before === null || !context.state.disabled.includes(id));
  const state = {
    ...context.state,
    installed: withTableEntry(context.state.installed, id, record),
    disabled: enabled ? others : [...others, id],
  };
  const journal = {
    version: 1,
    id,
    operation: change.operation,
    pid: process.pid,
    before,
    after: record,
    backup,
    staging,
  } as const;
  return commitOrRollBack(context, () => {
    writeJournal(dir, journal, context.fault);
    context.fault("journaled");
    if (backup !== null) {
      renameSync(target, join(dir, backup));
      context.fault("moved-old");
    }
    renameSync(join(dir, staging), target);
    context.fault("moved-new");
    commitState(context, state, id);
    let kept: string | undefined;
    if (backup !== null && record.previous !== undefined)
      keepAsPrevious(dir, id, join(dir, backup));
    else {
      if (backup !== null) kept = keepIfChanged(dir, id, join(dir, backup), before);
      dropPrevious(dir, id);
    }
    rmSync(journalPath(dir, id), { force: true });
    syncFolder(dir);
    context.fault("settled");
    const diagnostics = [...context.diagnostics, ...verifyInstalled(target, record)];
    return {
      id,
      scope: context.target.scope,
      dir: target,
      record,
      ...(kept === undefined ? {} : { packageBackup: kept }),
      diagnostics,
    };
  });
}

/** True when the copy's tree on disk is exactly what its record says. */
function treeMatches(context: WriterContext, id: string, record: InstallRecord): boolean {
  try {
    return digestTree(join(context.lock.dir, id)).digest === record.contentDigest;
  } catch {
    return false;
  }
}

function withoutPrevious(record: InstallRecord): PreviousRecord {
  const { previous: _dropped, ...rest } = record;
  return rest;
}

function stageCopy(
  context: WriterContext,
  id: string,
  source: string,
  digest: string,
  disposable = false,
): string {
  const staging = siblingName(id, "install");
  const path = join(context.lock.dir, staging);
  if (!disposable || !movedInto(source, path)) copyTree(source, path);
  context.fault("staged");
  const staged = digestTree(path).digest;
  if (staged !== digest) {
    rmSync(path, { recursive: true, force: true });
    throw new SkillshelfError(
      "digest_mismatch",
      `the files copied from ${source} digest to ${staged}, not the reviewed ${digest}`,
      {
        path: source,
        hint: "the staged folder changed after it was reviewed; stage it again",
        details: { expected: digest, observed: staged },
      },
    );
  }
  return staging;
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
