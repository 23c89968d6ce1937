import { type Environment, SkillshelfError } from "@skillshelf/core";
import type { ScopeCache } from "./cache.js";
import { newlyBrokenDependents, readPackageSnapshot, snapshotAfter } from "./snapshot.js";
import type { PackageScope } from "./types.js";

/**
 * Refuse (`dependents`) a change that would newly break a loadable dependent: a copy that is
 * loadable after the change and had every requirement met before, but not after. `change` is what
 * happens to the `scope` copies of `ids`, all at once.
 */
export function assertNoBrokenDependents(input: {
  readonly environment: Environment;
  readonly scope: PackageScope;
  readonly ids: readonly string[];
  readonly change: "disable" | "remove";
  readonly cache?: ScopeCache | undefined;
}): void {
  const { scope, change, cache } = input;
  const before = readPackageSnapshot(input.environment, { cache });
  const after = snapshotAfter(
    before,
    input.ids.map((id) => ({ scope, id, change })),
  );
  const broken = newlyBrokenDependents(before, after);
  if (broken.length === 0) return;
  const names = broken.map(
    (dependent) => `${dependent.scope}:${dependent.id} (needs ${dependent.missing.join(", ")})`,
  );
  throw new SkillshelfError(
    "dependents",
    `${change === "remove" ? "removing" : "disabling"} ${input.ids.map((id) => `${scope}:${id}`).join(", ")} would break ${names.join("; ")}`,
    {
      details: { dependents: broken, change: input.change },
    },
  );
}
