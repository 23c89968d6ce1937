import { type Environment, SkillshelfError } from "@skillshelf/core";
import { type ObservedScope, observeScope } from "./_observe.js";
import { PACKAGE_SCOPES } from "./scopes.js";
import { composeSnapshot, isRequirementMet } from "./snapshot.js";
import type { PackageScope } from "./types.js";

/**
 * Refuse (`dependents`) a change that would newly break a loadable dependent: a copy that is
 * loadable after the change and had every requirement met before, but not after. `change` is what
 * happens to the `scope` copy of `id`.
 */
export function assertNoBrokenDependents(input: {
  readonly environment: Environment;
  readonly scope: PackageScope;
  readonly id: string;
  readonly change: "disable" | "remove";
}): void {
  const observed = PACKAGE_SCOPES.map((scope) => observeScope(input.environment, scope));
  const before = composeSnapshot(observed);
  const after = composeSnapshot(observed.map((scope) => changed(scope, input)));
  const broken = after.copies
    .filter((copy) => copy.loadable)
    .map((copy) => ({
      id: copy.id,
      scope: copy.scope,
      missing: (copy.manifest?.requires ?? []).filter(
        (ref) => isRequirementMet(before, ref) && !isRequirementMet(after, ref),
      ),
    }))
    .filter((dependent) => dependent.missing.length > 0);
  if (broken.length === 0) return;
  const names = broken.map(
    (dependent) => `${dependent.scope}:${dependent.id} (needs ${dependent.missing.join(", ")})`,
  );
  throw new SkillshelfError(
    "dependents",
    `${input.change === "remove" ? "removing" : "disabling"} ${input.scope}:${input.id} would break ${names.join("; ")}`,
    {
      hint: `${input.change} the dependents first, or install another copy of what they need`,
      details: { dependents: broken },
    },
  );
}

// --- internal ---

function changed(
  scope: ObservedScope,
  input: { scope: PackageScope; id: string; change: "disable" | "remove" },
): ObservedScope {
  if (scope.scope !== input.scope) return scope;
  const copies = scope.copies.flatMap((copy) => {
    if (copy.id !== input.id) return [copy];
    return input.change === "remove" ? [] : [{ ...copy, enabled: false }];
  });
  return { ...scope, copies };
}
