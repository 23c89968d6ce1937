import { existsSync, lstatSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  copyTree,
  createDiagnostic,
  type Diagnostic,
  digestTree,
  isInside,
  type PackageKind,
  SkillshelfError,
  siblingName,
  syncFolder,
} from "@skillshelf/core";
import { journalPath, keepIfChanged, writeJournal } from "./_journal.js";
import { commitOrRollBack, commitState, runWriter, type WriterContext } from "./_writer.js";
import { readPackageManifest } from "./manifest.js";
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
  /** A staged package folder and its tree digest (from `sources`' `stageSource`, or any folder). */
  readonly staged: { readonly dir: string; readonly digest: string };
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
    const target = join(context.lock.dir, id);
    if (lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink())
      throw new SkillshelfError("target_unsafe", `${target} is a symlink`, {
        path: target,
        hint: "remove the symlink, then install",
      });
    const staging = stageCopy(context, id, source, input.staged.digest);
    const record: InstallRecord = {
      kind: manifest.kind,
      ...(manifest.version === undefined ? {} : { version: manifest.version }),
      format: manifest.format,
      installedAt: (input.now ?? new Date()).toISOString(),
      origin: input.origin,
      contentDigest: input.staged.digest,
      trust: manifest.format === "claude-code" ? "foreign" : "trusted",
    };
    const backup = existsSync(target) ? siblingName(id, "backup") : null;
    const state = {
      ...context.state,
      installed: { ...context.state.installed, [id]: record },
      disabled:
        before === null
          ? context.state.disabled.filter((disabled) => disabled !== id)
          : context.state.disabled,
    };
    const journal = {
      version: 1,
      id,
      operation: "install",
      pid: process.pid,
      before,
      after: record,
      backup,
      staging,
    } as const;
    return commitOrRollBack(context, () => {
      writeJournal(context.lock.dir, journal, context.fault);
      context.fault("journaled");
      if (backup !== null) {
        renameSync(target, join(context.lock.dir, backup));
        context.fault("moved-old");
      }
      renameSync(join(context.lock.dir, staging), target);
      context.fault("moved-new");
      commitState(context, state);
      const kept =
        backup === null
          ? undefined
          : keepIfChanged(context.lock.dir, id, join(context.lock.dir, backup), before);
      rmSync(journalPath(context.lock.dir, id), { force: true });
      syncFolder(context.lock.dir);
      context.fault("settled");
      const diagnostics = [...context.diagnostics, ...verifyInstalled(target, record)];
      return {
        id,
        scope: input.scope,
        dir: target,
        record,
        ...(kept === undefined ? {} : { packageBackup: kept }),
        diagnostics,
      };
    });
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

function stageCopy(context: WriterContext, id: string, source: string, digest: string): string {
  const staging = siblingName(id, "install");
  const path = join(context.lock.dir, staging);
  copyTree(source, path);
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
