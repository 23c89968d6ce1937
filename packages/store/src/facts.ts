import {
  canonicalJson,
  type Environment,
  type PackageScope,
  SkillshelfError,
  sameJson,
} from "@skillshelf/core";
import { assertPackageId } from "./_id.js";
import { observeScope } from "./_observe.js";
import type { ScopeCache } from "./cache.js";
import { copyOf, snapshotCovers } from "./snapshot.js";
import { readScopeState } from "./state.js";
import type { CopyFacts, PackageSnapshot } from "./types.js";

/**
 * Observe the facts about one copy that a plan is reviewed against: its tree digest (as the
 * snapshot sees it), its install record and whether it is enabled. Throws `package_id_invalid`
 * for an id that is not one, and `state_invalid` when the scope's state cannot be read: nothing
 * may be planned against it. A caller that has just read the scope's state may pass it (`state`).
 */
export function observeCopyFacts(
  input: {
    readonly environment: Environment;
    readonly scope: PackageScope;
    readonly id: string;
    readonly cache?: ScopeCache | undefined;
  },
  state?: ReturnType<typeof readScopeState>,
): CopyFacts {
  return observeManyCopyFacts({ ...input, ids: [input.id] }, state).get(input.id) as CopyFacts;
}

/**
 * `observeCopyFacts` for several copies of one scope at once, by id: one reading of the scope
 * (one listing of its folder, past a few ids), however many there are.
 */
export function observeManyCopyFacts(
  input: {
    readonly environment: Environment;
    readonly scope: PackageScope;
    readonly ids: readonly string[];
    readonly cache?: ScopeCache | undefined;
  },
  state?: ReturnType<typeof readScopeState>,
): Map<string, CopyFacts> {
  for (const id of input.ids) assertPackageId(id);
  const scope = observeScope(
    input.environment,
    input.scope,
    new Set(input.ids),
    state ?? readScopeState(input.environment, input.scope, input.cache),
    input.cache,
  );
  const invalid = scope.diagnostics.find(
    (diagnostic) => diagnostic.code === "state_invalid" || diagnostic.code === "state_unsafe",
  );
  if (invalid !== undefined)
    throw new SkillshelfError("state_invalid", invalid.message, {
      path: invalid.path,
      details: {
        diagnostics: scope.diagnostics.filter((diagnostic) => diagnostic.path === invalid.path),
      },
    });
  const facts = new Map<string, CopyFacts>(
    input.ids.map((id) => [id, { tree: null, record: null, enabled: true }]),
  );
  for (const copy of scope.copies)
    facts.set(copy.id, {
      tree:
        copy.observedDigest ??
        (copy.diagnostics.some((d) => d.code === "copy_missing") ? null : "unreadable"),
      record: copy.record ?? null,
      enabled: copy.enabled,
    });
  return facts;
}

/**
 * The facts `observeCopyFacts` gives for copy `id` of `scope`, as a snapshot read a moment ago
 * found them (one stamp of its tree, not two; a copy it read and found none of is absent);
 * `undefined` when the snapshot did not read that copy or could not read its scope's state (ask
 * `observeCopyFacts`, which says why).
 */
export function snapshotCopyFacts(
  snapshot: PackageSnapshot,
  scope: PackageScope,
  id: string,
): CopyFacts | undefined {
  const copy = copyOf(snapshot, scope, id);
  if (copy === undefined)
    return snapshotCovers(snapshot, scope, id)
      ? { tree: null, record: null, enabled: true }
      : undefined;
  const codes = new Set(copy.diagnostics.map((diagnostic) => diagnostic.code));
  if (codes.has("state_unreadable")) return undefined;
  return {
    tree: copy.observedDigest ?? (codes.has("copy_missing") ? null : "unreadable"),
    record: copy.record ?? null,
    enabled: copy.enabled,
  };
}

/** The first reviewed fact that no longer holds, or `undefined` when the plan is still current. */
export function changedFact(
  reviewed: CopyFacts,
  observed: CopyFacts,
): { fact: string; expected: unknown; observed: unknown } | undefined {
  if (reviewed.tree !== observed.tree)
    return { fact: "tree", expected: reviewed.tree, observed: observed.tree };
  if (reviewed.enabled !== observed.enabled)
    return { fact: "enabled", expected: reviewed.enabled, observed: observed.enabled };
  if (reviewed.record === null || observed.record === null) {
    return reviewed.record === observed.record
      ? undefined
      : { fact: "record", expected: reviewed.record, observed: observed.record };
  }
  // one parse of an unchanged state.json (a scope cache's) gives the record it gave the review
  if (reviewed.record === observed.record) return undefined;
  const before: Readonly<Record<string, unknown>> = reviewed.record;
  const after: Readonly<Record<string, unknown>> = observed.record;
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort())
    if (!sameJson(before[key] ?? null, after[key] ?? null))
      return { fact: key, expected: before[key], observed: after[key] };
  return undefined;
}

/** Throw `stale_plan` naming the fact when `observed` differs from what was reviewed. */
export function assertFactsCurrent(input: {
  readonly scope: PackageScope;
  readonly id: string;
  readonly reviewed: CopyFacts;
  readonly observed: CopyFacts;
}): void {
  const changed = changedFact(input.reviewed, input.observed);
  if (changed === undefined) return;
  throw new SkillshelfError(
    "stale_plan",
    `reviewed ${changed.fact} changed for ${input.scope}:${input.id} (expected ${canonicalJson(changed.expected ?? null)}, observed ${canonicalJson(changed.observed ?? null)})`,
    { details: { scope: input.scope, id: input.id, ...changed } },
  );
}
