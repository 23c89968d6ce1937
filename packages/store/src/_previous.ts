import { existsSync, mkdirSync, readdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import {
  type Environment,
  errnoCode,
  isPackageId,
  type PackageScope,
  removeTree,
  syncFolder,
} from "@skillshelf/core";
import { discard } from "./_discard.js";
import { assertPlainEntry } from "./_scope-folders.js";
import { packagesDir } from "./scopes.js";
import type { ScopeState } from "./types.js";

/**
 * Where the tree an update replaced is kept for `rollback`: `packages/.previous/<id>/` (no
 * package id starts with a dot, so no copy can be named so). The state record's `previous` says
 * what it holds.
 */
export function previousDir(dir: string, id: string): string {
  return join(dir, ".previous", id);
}

/** Where the version an update replaced is kept for copy `id` of a scope (for `rollback`). */
export function previousCopyDir(
  target: { readonly environment: Environment; readonly scope: PackageScope },
  id: string,
): string {
  return previousDir(packagesDir(target.environment, target.scope), id);
}

/**
 * Make the tree at `path` the copy's previous version, replacing any kept before. The caller
 * makes the move durable (`syncPrevious`) before it forgets the step: once for all its copies.
 */
export function keepAsPrevious(dir: string, id: string, path: string): void {
  dropPrevious(dir, id);
  mkdirSync(join(dir, ".previous"), { recursive: true });
  renameSync(path, previousDir(dir, id));
}

/** Make the trees moved into `.previous` durable, when there is one. */
export function syncPrevious(dir: string): void {
  if (existsSync(join(dir, ".previous"))) syncFolder(join(dir, ".previous"));
}

/** Delete a copy's previous version, if one is kept (renamed aside first, like any discarded tree). */
export function dropPrevious(dir: string, id: string): void {
  const path = previousDir(dir, id);
  // most copies keep none: a look is cheaper than a failed rename
  if (!existsSync(path)) return;
  discard(dir, id, path);
}

/**
 * Remove kept previous versions the state no longer names (left by an interrupted writer). The
 * folder is looked at without following a link: a symlink there is `library_symlinked`, and
 * nothing is removed through it.
 */
export function settlePrevious(dir: string, state: ScopeState): void {
  const kept = join(dir, ".previous");
  assertPlainEntry(kept, "folder");
  let names: string[];
  try {
    names = readdirSync(kept);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return;
    throw error;
  }
  for (const name of names)
    if (!isPackageId(name) || state.installed[name]?.previous === undefined)
      removeTree(join(dir, ".previous", name));
}
