import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { isInside, type PackageKind, SkillshelfError, sameJson } from "@skillshelf/core";
import { attempted, copyBatch, type WriteBatch } from "./_batch.js";
import { assertPackageId } from "./_id.js";
import { previousDir } from "./_previous.js";
import { stageCopy, swapInTrees, type TreeChange, treeMatches, withoutPrevious } from "./_swap.js";
import {
  assertCopyWritable,
  runWriter,
  type WriterContext,
  withCopiesObserved,
} from "./_writer.js";
import type { LinkRequest } from "./links.js";
import { keptManifest, readPackageManifest } from "./manifest.js";
import { packagesDir } from "./scopes.js";
import type {
  CopyFacts,
  InstallRecord,
  PackageManifest,
  PackageOrigin,
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
  /** The audit verdict on the staged tree, for the record. */
  readonly audit?: InstallRecord["audit"];
  /** Who signed what was staged, for the record. */
  readonly signer?: string | undefined;
  /**
   * Digest the copy again once it is in place and report a `verification` diagnostic when it
   * differs (default). `false` when the caller reads every copy back itself.
   */
  readonly readBack?: boolean | undefined;
  /**
   * Links into other agents' folders made in the same step (`install --agent`), each `target`
   * where the resource will be once installed (inside `packages/<id>`). When the scope already
   * holds exactly this package, only the links missing are made.
   */
  readonly links?: readonly LinkRequest[] | undefined;
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
  const { results, failure } = installPackages([input]);
  if (failure !== undefined) throw failure.error;
  return results[0] as WriteResult;
}

/**
 * Install several packages into one scope as one commit: each input is checked and staged as
 * `installPackage` does, in order, and the ones before the first that fails are swapped in under
 * one scope lock with one `state.json` write and one `lock.json` write, so a crash leaves the
 * scope as before all of them or after all of them. Every input must name the same scope, and an
 * id may appear once.
 */
export function installPackages(inputs: readonly InstallPackageInput[]): WriteBatch {
  const [first] = inputs;
  if (first === undefined) return { results: [] };
  const dir = packagesDir(first.environment, first.scope);
  const checked: { input: InstallPackageInput; manifest: PackageManifest; source: string }[] = [];
  const ids = new Set<string>();
  let failure: WriteBatch["failure"];
  for (const [index, input] of inputs.entries()) {
    if (packagesDir(input.environment, input.scope) !== dir)
      throw new Error("installPackages: every input must name the same scope");
    const attempt = attempted(index, () => checkedOutside(input, dir));
    if (!attempt.ok) {
      failure = attempt.failure;
      break;
    }
    if (ids.has(attempt.value.manifest.id))
      throw new Error(`installPackages: ${attempt.value.manifest.id} appears twice`);
    ids.add(attempt.value.manifest.id);
    checked.push(attempt.value);
  }
  if (checked.length === 0) return { results: [], failure };
  const locked = attempted(0, () =>
    runWriter(first, (context) => {
      const changes: TreeChange[] = [];
      const checking = withCopiesObserved(
        context,
        checked.map(({ input, manifest }) => ({ id: manifest.id, reviewed: input.reviewed })),
      );
      for (const [index, { input, manifest, source }] of checked.entries()) {
        const change = attempted(index, () => installChange(checking, input, manifest, source));
        if (!change.ok) {
          failure = change.failure;
          break;
        }
        changes.push(change.value);
      }
      return changes.length === 0 ? [] : swapInTrees(context, changes);
    }),
  );
  return locked.ok ? { results: locked.value, failure } : { results: [], failure: locked.failure };
}

/** What `rollbackPackage` restores and what it was reviewed against. */
export interface RollbackPackageInput extends ScopeTarget {
  readonly id: string;
  readonly reviewed: CopyFacts;
}

/**
 * Restore the version an update replaced, in one locked step: the kept tree (verified against
 * its digest) becomes the copy again with its old record. Only one version is kept, so nothing is
 * earlier than it: a second rollback is `no_previous_version` (an update goes forward again). The
 * replaced tree is deleted, or kept as a backup when its files differ from its record. Refuses a
 * stale plan (`stale_plan`).
 */
export function rollbackPackage(input: RollbackPackageInput): WriteResult {
  const { results, failure } = rollbackPackages([input]);
  if (failure !== undefined) throw failure.error;
  return results[0] as WriteResult;
}

/**
 * Roll several copies of one scope back as one commit, each checked as `rollbackPackage` checks
 * it, in order: the ones before the first refused are swapped under one scope lock with one
 * `state.json` and one `lock.json` write, so a crash leaves all of them rolled back or none.
 */
export function rollbackPackages(inputs: readonly RollbackPackageInput[]): WriteBatch {
  return copyBatch("rollbackPackages", inputs, rollbackChange, (context, checked) =>
    checked.length === 0
      ? []
      : swapInTrees(
          context,
          checked.map(({ value }) => value),
        ),
  );
}

// --- internal ---

/** Inside the lock: the kept previous version of one copy, staged to be swapped in. */
function rollbackChange(context: WriterContext, input: RollbackPackageInput): TreeChange {
  const { id, scope } = input;
  assertCopyWritable(context, id, input.reviewed);
  const before = context.state.installed[id] ?? null;
  const kept = previousDir(context.lock.dir, id);
  const previous = before?.previous;
  if (before === null || previous === undefined || !existsSync(kept))
    throw new SkillshelfError(
      "no_previous_version",
      `${scope}:${id} has no previous version to restore`,
      { path: join(context.lock.dir, id) },
    );
  const { staging } = stageCopy(context, id, kept, previous.contentDigest);
  return { id, operation: "rollback", staging, before, record: previous };
}

/** The checks an install makes before taking the lock: its manifest, pins and source folder. */
function checkedOutside(
  input: InstallPackageInput,
  dir: string,
): { input: InstallPackageInput; manifest: PackageManifest; source: string } {
  const manifest = stagedManifest(input);
  assertPackageId(manifest.id);
  const source = resolve(input.staged.dir);
  if (isInside(source, dir) || isInside(dir, source))
    throw new SkillshelfError(
      "source_overlap",
      `${source} overlaps the ${input.scope} packages folder ${dir}`,
      { path: source },
    );
  return { input, manifest, source };
}

/**
 * Inside the lock: re-check one install against the scope, stage its tree, make its record. A
 * copy that already holds exactly this package with only links to make stages nothing.
 */
function installChange(
  context: WriterContext,
  input: InstallPackageInput,
  manifest: PackageManifest,
  source: string,
): TreeChange {
  const id = manifest.id;
  assertCopyWritable(context, id, input.reviewed);
  const before = context.state.installed[id] ?? null;
  if (before !== null && before.kind !== manifest.kind)
    throw new SkillshelfError(
      "kind_change",
      `${id} is installed as a ${before.kind} package and the new one is a ${manifest.kind} package`,
    );
  const links = input.links ?? [];
  // a copy that holds exactly these files is not staged again: its links are made, or its
  // record pinned anew (the same files at another commit)
  if (
    (links.length > 0 || !sameJson(before?.origin, input.origin)) &&
    before?.contentDigest === input.staged.digest &&
    treeMatches(context, id, before)
  )
    return {
      id,
      operation: "install",
      staging: null,
      before,
      record: {
        ...before,
        origin: input.origin,
        ...(input.audit === undefined ? {} : { audit: input.audit }),
      },
      links,
    };
  // judged before the new tree is staged: staging keeps the new tree's stamp under the copy's
  // folder in the cache, where the old tree's (what this asks about) was
  const previous =
    input.keepPrevious === true && before !== null && treeMatches(context, id, before)
      ? withoutPrevious(before)
      : undefined;
  const { staging, files } = stageCopy(
    context,
    id,
    source,
    input.staged.digest,
    input.staged.disposable,
  );
  const record: InstallRecord = {
    kind: manifest.kind,
    ...(manifest.version === undefined ? {} : { version: manifest.version }),
    format: manifest.format,
    installedAt: (input.now ?? new Date()).toISOString(),
    origin: input.origin,
    contentDigest: input.staged.digest,
    trust: manifest.format === "claude-code" ? "foreign" : "trusted",
    ...(input.audit === undefined ? {} : { audit: input.audit }),
    ...(input.signer === undefined ? {} : { signer: input.signer }),
    ...(manifest.requires.length === 0 ? {} : { requires: [...manifest.requires] }),
    ...(files === undefined ? {} : { files }),
    ...(previous === undefined ? {} : { previous }),
  };
  return {
    id,
    operation: "install",
    staging,
    before,
    record,
    enabled: input.enabled,
    readBack: input.readBack !== false,
    links,
  };
}

function stagedManifest(input: InstallPackageInput): PackageManifest {
  // a manifest the cache kept for the reviewed digest is taken as it is: the digest checked
  // inside the lock covers the manifest's file and everything it declares
  const kept =
    input.cache === undefined
      ? undefined
      : keptManifest(input.cache, input.staged.digest, input.staged.dir);
  const read =
    kept === undefined ? readPackageManifest(input.staged.dir) : { ok: true as const, value: kept };
  if (!read.ok)
    throw new SkillshelfError(
      "manifest_invalid",
      `the package at ${input.staged.dir} has an invalid manifest`,
      {
        path: input.staged.dir,
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
          details: { fact, expected: want, observed: got },
        },
      );
  if (expected.digest !== undefined && expected.digest !== input.staged.digest)
    throw new SkillshelfError(
      "digest_mismatch",
      `the staged package's digest is ${input.staged.digest}, but ${expected.digest} was pinned`,
      {
        path: input.staged.dir,
        details: { expected: expected.digest, observed: input.staged.digest },
      },
    );
  return manifest;
}
