import { type Dirent, existsSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  type Code,
  createDiagnostic,
  type Diagnostic,
  type Environment,
  errnoCode,
  isPackageId,
  isSkillshelfError,
  type PackageScope,
  type SkillshelfError,
} from "@skillshelf/core";
import { recallTrees, rememberTrees } from "./_remembered.js";
import { pendingTreeMoves, STEP_JOURNAL, type TreeMove } from "./_step-journal.js";
import { journaledTreeDir } from "./_tree-moves.js";
import { createScopeCache, freshTreeDigest, heldTree, type ScopeCache } from "./cache.js";
import { readPackageManifest } from "./manifest.js";
import { packagesDir } from "./scopes.js";
import type { readScopeState } from "./state.js";
import type { InstallRecord, PackageCopy, PackageManifest, ScopeState } from "./types.js";

/** One copy as read from disk, before precedence is decided. */
export type ObservedCopy = Omit<
  PackageCopy,
  "effective" | "loadable" | "state" | "overriddenBy"
> & {
  /** Its tree's digest differs from its record (content drift). */
  readonly damaged: boolean;
};

/** A scope as read from disk. */
export interface ObservedScope {
  readonly scope: PackageScope;
  readonly copies: readonly ObservedCopy[];
  readonly diagnostics: readonly Diagnostic[];
  /** Trees digested while reading it. */
  readonly treesDigested: number;
  /** The ids it read (`PackageSnapshot.covered`); none when its state could not be read. */
  readonly covered?: "all" | readonly string[] | undefined;
}

/**
 * Read one scope: its state, journals and every copy (each tree digested once). Copies are the
 * recorded ids plus any id-named folder; a folder an uncommitted install put in place of nothing
 * is not a copy yet. An unreadable state makes every copy invalid. `only` limits the copies read
 * to those ids; `stateResult` is the scope's state as the caller just read it.
 */
export function observeScope(
  environment: Environment,
  scope: PackageScope,
  only: ReadonlySet<string> | undefined,
  stateResult: ReturnType<typeof readScopeState>,
  given?: ScopeCache,
): ObservedScope {
  const dir = packagesDir(environment, scope);
  // a read of the whole scope recalls what the last one found (a cache is worth having for that
  // alone); a read of a few copies with no cache given looks at them, not at every copy's entry
  const cache = given ?? createScopeCache();
  const recalled = given !== undefined || only === undefined ? recallTrees(dir, cache) : undefined;
  const diagnostics: Diagnostic[] = [];
  if (!stateResult.ok) diagnostics.push(...stateResult.diagnostics);
  const state = stateResult.ok ? stateResult.value.state : undefined;
  // the ids asked for that can name a copy, sorted
  const asked = only === undefined ? undefined : [...only].filter((id) => isPackageId(id)).sort();
  const { dotEntries, ids } =
    asked === undefined ? listScope(dir, state) : lookUpIds(dir, state, asked);
  const pending = pendingTreeMoves(
    dir,
    scope,
    dotEntries,
    stateResult.ok ? stateResult.value.text : undefined,
    diagnostics,
  );
  const copies: ObservedCopy[] = [];
  for (const id of ids) {
    const move: TreeMove | undefined = pending.moves.get(id);
    let treeDir: string | undefined = join(dir, id);
    if (move !== undefined && state !== undefined) {
      treeDir = journaledTreeDir(dir, move, pending.committed);
      diagnostics.push(
        createDiagnostic(
          "info",
          "operation_pending",
          `an ${move.operation} of ${id} has not been settled; the next operation in this scope settles it`,
          { path: join(dir, id), details: { id } },
        ),
      );
      if (treeDir === undefined && state.installed[id] === undefined) continue;
    }
    copies.push(
      observeCopy({
        id,
        scope,
        dir: join(dir, id),
        treeDir,
        record: state?.installed[id],
        enabled: state !== undefined && !state.disabled.includes(id),
        stateReadable: state !== undefined,
        cache,
      }),
    );
  }
  // only a read of the whole scope writes what it found: one of a few copies, repeated for each
  // of many (a writer's checks), would weigh each against every entry
  if (only === undefined)
    rememberTrees({
      dir,
      ids: copies.filter((copy) => copy.dir === join(dir, copy.id)).map((copy) => copy.id),
      recalled: recalled ?? new Map(),
      cache,
    });
  const treesDigested = copies.filter((copy) => copy.observedDigest !== undefined).length;
  const covered = stateResult.ok ? (asked ?? "all") : undefined;
  return { scope, copies, diagnostics, treesDigested, covered };
}

// --- internal ---

function observeCopy(input: {
  id: string;
  scope: PackageScope;
  dir: string;
  treeDir: string | undefined;
  record: InstallRecord | undefined;
  enabled: boolean;
  stateReadable: boolean;
  cache: ScopeCache;
}): ObservedCopy {
  const { id, scope, dir, treeDir, record, enabled, stateReadable, cache } = input;
  const diagnostics: Diagnostic[] = [];
  const problem = (code: Code, message: string) =>
    diagnostics.push(
      createDiagnostic("error", code, message, { path: dir, details: { id, scope } }),
    );
  let manifest: PackageManifest | undefined;
  let observedDigest: string | undefined;
  // a known tree is stamped again first: a stamp that holds says the folder is there, unchanged
  const held = treeDir === undefined ? undefined : heldTree(treeDir, cache);
  if (treeDir === undefined || (held === undefined && !existsSync(treeDir))) {
    problem(
      "copy_missing",
      `${scope} copy of ${id} is recorded but its folder is gone; reinstall or remove it`,
    );
  } else {
    // digested first, so a manifest read from the same bytes in this process is reused
    let digestProblem: SkillshelfError | undefined;
    try {
      observedDigest = held?.digest ?? freshTreeDigest(treeDir, cache);
    } catch (error) {
      if (!isSkillshelfError(error)) throw error;
      digestProblem = error;
    }
    const read = readPackageManifest(
      treeDir,
      observedDigest === undefined ? undefined : { digest: observedDigest, cache },
    );
    diagnostics.push(...read.diagnostics);
    manifest = read.ok ? read.value : undefined;
    if (manifest !== undefined && manifest.id !== id)
      problem(
        "id_mismatch",
        `the manifest in ${treeDir} names "${manifest.id}", not "${id}"; a copy's folder must be named after its package`,
      );
    if (digestProblem !== undefined) problem(digestProblem.code, digestProblem.message);
  }
  if (!stateReadable)
    problem(
      "state_unreadable",
      `the ${scope} scope's state.json cannot be read, so the copy of ${id} cannot be trusted`,
    );
  else if (record === undefined)
    problem(
      "copy_unrecorded",
      `${dir} has no install record; install the package properly or remove the folder`,
    );
  const damaged =
    record !== undefined && observedDigest !== undefined && observedDigest !== record.contentDigest;
  if (damaged)
    problem(
      "content_drift",
      `the files of ${id} changed since it was installed (content drift); reinstall it, or update to keep your edits in a backup`,
    );
  if (record !== undefined && manifest !== undefined && record.kind !== manifest.kind)
    problem(
      "kind_mismatch",
      `${id} was installed as a ${record.kind} package but its manifest says ${manifest.kind}`,
    );
  const valid = !diagnostics.some((diagnostic) => diagnostic.severity === "error");
  return {
    id,
    scope,
    dir: treeDir ?? dir,
    manifest,
    record,
    observedDigest,
    enabled,
    valid,
    damaged,
    diagnostics,
  };
}

/** Every copy id of a scope (recorded or an id-named folder), sorted, and its dot entries. */
function listScope(
  dir: string,
  state: ScopeState | undefined,
): { dotEntries: string[]; ids: string[] } {
  // one listing serves both the journal and the copies' folders
  const entries = listEntries(dir);
  const folders = entries
    .filter((entry) => isPackageId(entry.name) && (entry.isDirectory() || entry.isSymbolicLink()))
    .map((entry) => entry.name);
  return {
    dotEntries: entries.filter((entry) => entry.name.startsWith(".")).map((entry) => entry.name),
    ids: [...new Set([...folders, ...Object.keys(state?.installed ?? {})])].sort(),
  };
}

/**
 * The ids of `ids` (package ids, sorted) that are copies of a scope: a few looked up by name, so
 * reading them costs the same however many the scope holds, many in one listing (only the step
 * journal is looked for among the dot entries).
 */
function lookUpIds(
  dir: string,
  state: ScopeState | undefined,
  ids: readonly string[],
): { dotEntries: string[]; ids: string[] } {
  // many ids are looked up in one listing: a look at each would cost more
  if (ids.length > LOOKED_UP) {
    const listed = listScope(dir, undefined);
    const folders = new Set(listed.ids);
    return {
      dotEntries: listed.dotEntries.filter((name) => name === STEP_JOURNAL),
      ids: ids.filter((id) => state?.installed[id] !== undefined || folders.has(id)),
    };
  }
  const isCopy = (id: string) => {
    if (state?.installed[id] !== undefined) return true;
    const stats = lstatSync(join(dir, id), { throwIfNoEntry: false });
    return stats?.isDirectory() === true || stats?.isSymbolicLink() === true;
  };
  return {
    dotEntries: existsSync(join(dir, STEP_JOURNAL)) ? [STEP_JOURNAL] : [],
    ids: ids.filter(isCopy),
  };
}

// past this many ids, one listing of the scope's folder is cheaper than a look at each
const LOOKED_UP = 32;

function listEntries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return [];
    throw error;
  }
}
