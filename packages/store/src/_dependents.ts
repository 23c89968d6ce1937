import {
  copyKey,
  type Environment,
  type PackageScope,
  parseRequirementRef,
  SkillshelfError,
} from "@skillshelf/core";
import { scopeFolderProblem } from "./_scope-folders.js";
import type { ScopeCache } from "./cache.js";
import { PACKAGE_SCOPES } from "./scopes.js";
import { readScopeState } from "./state.js";

/**
 * Refuse (`dependents`) a change that would newly break a loadable dependent: a copy that is
 * loadable after the change and had every requirement met before, but not after. `change` is what
 * happens to the `scope` copies of `ids`, all at once. Judged from the scopes' records alone (kind,
 * requirements, disabled flags, and a project copy shadowing the user's), not by reading the
 * copies: a plan judged them as they are on disk, and a writer under the lock checks that no
 * record changed since.
 */
export function assertNoBrokenDependents(input: {
  readonly environment: Environment;
  readonly scope: PackageScope;
  readonly ids: readonly string[];
  readonly change: "disable" | "remove";
  readonly cache?: ScopeCache | undefined;
}): void {
  const { scope, change } = input;
  const before = recordedCopies(input.environment, input.cache);
  const changed = new Set(input.ids);
  const after = before.flatMap((copy): RecordedCopy[] => {
    if (copy.scope !== scope || !changed.has(copy.id)) return [copy];
    return change === "remove" ? [] : [{ ...copy, enabled: false }];
  });
  const [was, is] = [loadable(before), loadable(after)];
  const broken = [...is.values()]
    .map((copy) => ({
      id: copy.id,
      scope: copy.scope,
      missing: copy.requires.filter((ref) => met(was, ref) && !met(is, ref)),
    }))
    .filter((dependent) => dependent.missing.length > 0);
  if (broken.length === 0) return;
  const names = broken.map(
    (dependent) => `${dependent.scope}:${dependent.id} (needs ${dependent.missing.join(", ")})`,
  );
  throw new SkillshelfError(
    "dependents",
    `${change === "remove" ? "removing" : "disabling"} ${input.ids.map((id) => copyKey({ scope, id })).join(", ")} would break ${names.join("; ")}`,
    { details: { dependents: broken, change } },
  );
}

// --- internal ---

interface RecordedCopy {
  readonly scope: PackageScope;
  readonly id: string;
  readonly kind: string;
  readonly requires: readonly string[];
  readonly enabled: boolean;
}

/** Every recorded copy of every readable scope, the user's first. */
function recordedCopies(environment: Environment, cache: ScopeCache | undefined): RecordedCopy[] {
  return PACKAGE_SCOPES.flatMap((scope) => {
    if (scopeFolderProblem(environment, scope, "read") !== undefined) return [];
    const state = readScopeState(environment, scope, cache);
    if (!state.ok) return [];
    const { installed, disabled } = state.value.state;
    const off = new Set(disabled);
    return Object.entries(installed).map(([id, record]) => ({
      scope,
      id,
      kind: record.kind,
      requires: record.requires ?? [],
      enabled: !off.has(id),
    }));
  });
}

/** The copy in effect for each id (a project copy shadows the user's), if it is enabled. */
function loadable(copies: readonly RecordedCopy[]): Map<string, RecordedCopy> {
  const effective = new Map<string, RecordedCopy>();
  for (const copy of copies) effective.set(copy.id, copy);
  for (const [id, copy] of effective) if (!copy.enabled) effective.delete(id);
  return effective;
}

function met(loadableCopies: ReadonlyMap<string, RecordedCopy>, ref: string): boolean {
  const parsed = parseRequirementRef(ref);
  return parsed !== undefined && loadableCopies.get(parsed.name)?.kind === parsed.kind;
}
