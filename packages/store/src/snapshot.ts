import {
  copyKey,
  type Diagnostic,
  type Environment,
  isPackageId,
  type PackageCopyRef,
  type PackageScope,
  parseRequirementRef,
  sortDiagnostics,
} from "@skillshelf/core";
import { type ObservedCopy, type ObservedScope, observeScope } from "./_observe.js";
import { scopeFolderProblem } from "./_scope-folders.js";
import type { ScopeCache } from "./cache.js";
import { PACKAGE_SCOPES } from "./scopes.js";
import { readScopeState } from "./state.js";
import type { CopyState, PackageCopy, PackageSnapshot } from "./types.js";

/**
 * Read every installed copy in the user and project scopes and decide which counts: among valid
 * copies of an id the project copy wins; a disabled valid project copy still shadows the user
 * copy (no fallback); an invalid or damaged project copy does not hide a valid user copy. Each
 * tree is digested once. The snapshot is plain data: read a new
 * one to see later changes.
 *
 * With `ids`, only the copies of those packages are read (precedence is decided per id, so it is
 * the same for them); a change that concerns a few packages then costs the same however many
 * others are installed.
 */
export function readPackageSnapshot(
  environment: Environment,
  options: {
    readonly ids?: Iterable<string> | undefined;
    /** Reuse parses of unchanged scope files (`createScopeCache`). */
    readonly cache?: ScopeCache | undefined;
  } = {},
): PackageSnapshot {
  const only = options.ids === undefined ? undefined : new Set(options.ids);
  return composeSnapshot(
    PACKAGE_SCOPES.map((scope): ObservedScope => {
      // a library reached through a symlink out of the project is not read at all
      const refused = scopeFolderProblem(environment, scope, "read");
      if (refused !== undefined)
        return { scope, copies: [], diagnostics: [refused], treesDigested: 0 };
      return observeScope(
        environment,
        scope,
        only,
        readScopeState(environment, scope, options.cache),
        options.cache,
      );
    }),
  );
}

/** The copy that counts for `id`, if any copy is valid. */
export function effectiveCopy(snapshot: PackageSnapshot, id: string): PackageCopy | undefined {
  return copiesOf(snapshot, id).find((copy) => copy.effective);
}

/**
 * The copies of `id` (at most one per scope, the user copy first), found by a binary search of
 * the sorted copies: a plan or read-back that asks about each of many packages stays linear.
 */
export function copiesOf(snapshot: PackageSnapshot, id: string): readonly PackageCopy[] {
  const { copies } = snapshot;
  const low = firstAtOrAfter(copies.length, (at) => (copies[at] as PackageCopy).id, id);
  let end = low;
  while (end < copies.length && (copies[end] as PackageCopy).id === id) end += 1;
  return copies.slice(low, end);
}

/**
 * Whether `snapshot` read copy `id` of `scope` (`PackageSnapshot.covered`): when it did and
 * holds no such copy, there is none there.
 */
export function snapshotCovers(
  snapshot: PackageSnapshot,
  scope: PackageScope,
  id: string,
): boolean {
  // a name that is no package id was never read as one (observing it refuses it)
  if (!isPackageId(id)) return false;
  const covered = snapshot.covered?.[scope];
  if (covered === undefined || covered === "all") return covered === "all";
  return covered[firstAtOrAfter(covered.length, (at) => covered[at] as string, id)] === id;
}

/** The copy of `id` in `scope`, if there is one. */
export function copyOf(
  snapshot: PackageSnapshot,
  scope: PackageScope,
  id: string,
): PackageCopy | undefined {
  return copiesOf(snapshot, id).find((copy) => copy.scope === scope);
}

/**
 * The loadable copy that owns a loaded resource or a root (its `owner`), `undefined` for a loose
 * one or a copy that is not loadable.
 */
export function loadableOwner(
  snapshot: PackageSnapshot,
): (owned: { readonly owner?: PackageCopyRef | undefined }) => PackageCopy | undefined {
  return ({ owner }) => {
    const copy = owner === undefined ? undefined : copyOf(snapshot, owner.scope, owner.id);
    return copy?.loadable === true ? copy : undefined;
  };
}

/**
 * True when `ref` (`kind:name`) is met: a loadable copy of package `name` whose manifest kind is
 * `kind`. The one predicate every requirement check uses.
 */
export function isRequirementMet(snapshot: PackageSnapshot, ref: string): boolean {
  const parsed = parseRequirementRef(ref);
  return (
    parsed !== undefined &&
    copiesOf(snapshot, parsed.name).some(
      (copy) => copy.loadable && copy.manifest?.kind === parsed.kind,
    )
  );
}

/** A change to one copy whose effect on the rest a plan projects before making it. */
export interface CopyChange {
  readonly scope: PackageScope;
  readonly id: string;
  readonly change: "enable" | "disable" | "remove";
}

/**
 * The snapshot as it would read after `changes` (one, or several at once; a copy changes once),
 * precedence decided again (a disabled project copy still shadows the user copy; a removed one
 * reveals it). Nothing is read from disk.
 */
export function snapshotAfter(
  snapshot: PackageSnapshot,
  changes: CopyChange | readonly CopyChange[],
): PackageSnapshot {
  const byCopy = new Map(
    (Array.isArray(changes) ? changes : [changes]).map((one: CopyChange) => [
      copyKey(one),
      one.change,
    ]),
  );
  const scopes = PACKAGE_SCOPES.map(
    (scope): ObservedScope => ({
      scope,
      copies: snapshot.copies
        .filter((copy) => copy.scope === scope)
        .flatMap((copy): ObservedCopy[] => {
          const { effective: _e, loadable: _l, state, overriddenBy: _o, ...observed } = copy;
          const base = { ...observed, damaged: state === "damaged" };
          const change = byCopy.get(copyKey(copy));
          if (change === undefined) return [base];
          if (change === "remove") return [];
          return [{ ...base, enabled: change === "enable" }];
        }),
      diagnostics: [],
      treesDigested: 0,
    }),
  );
  return {
    ...composeSnapshot(scopes),
    diagnostics: snapshot.diagnostics,
    covered: snapshot.covered,
  };
}

/**
 * The loadable copies of `after` that had every requirement met in `before` and miss one now,
 * with what each misses: the dependents a change would newly break.
 */
export function newlyBrokenDependents(
  before: PackageSnapshot,
  after: PackageSnapshot,
): { id: string; scope: PackageScope; missing: string[] }[] {
  return after.copies
    .filter((copy) => copy.loadable)
    .map((copy) => ({
      id: copy.id,
      scope: copy.scope,
      missing: (copy.manifest?.requires ?? []).filter(
        (ref) => isRequirementMet(before, ref) && !isRequirementMet(after, ref),
      ),
    }))
    .filter((dependent) => dependent.missing.length > 0);
}

/** Compose observed scopes (user first) into a snapshot. */
export function composeSnapshot(scopes: readonly ObservedScope[]): PackageSnapshot {
  const observed = scopes.flatMap((scope) => scope.copies);
  const winners = new Map<string, ObservedCopy>();
  for (const copy of observed) if (copy.valid) winners.set(copy.id, copy);
  const copies = observed
    .map((copy) => toCopy(copy, winners.get(copy.id)))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.scope === "user" ? -1 : 1));
  const diagnostics: Diagnostic[] = scopes.flatMap((scope) => scope.diagnostics);
  const treesDigested = scopes.reduce((sum, scope) => sum + scope.treesDigested, 0);
  const covered = Object.fromEntries(
    scopes.flatMap((scope) => (scope.covered === undefined ? [] : [[scope.scope, scope.covered]])),
  );
  return { copies, diagnostics: sortDiagnostics(diagnostics), treesDigested, covered };
}

// --- internal ---

/** The first of `length` sorted keys (`keyAt`) not below `key`: a binary search. */
function firstAtOrAfter(length: number, keyAt: (at: number) => string, key: string): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keyAt(middle) < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

function toCopy(copy: ObservedCopy, winner: ObservedCopy | undefined): PackageCopy {
  const effective = winner === copy;
  const loadable = copy.valid && copy.enabled && effective;
  const overriddenBy = winner !== undefined && !effective ? winner.scope : undefined;
  const state: CopyState = loadable
    ? "loadable"
    : copy.damaged
      ? "damaged"
      : !copy.valid
        ? "invalid"
        : !copy.enabled
          ? "disabled"
          : "shadowed";
  return {
    ...copy,
    effective,
    loadable,
    state,
    ...(overriddenBy === undefined ? {} : { overriddenBy }),
  };
}
