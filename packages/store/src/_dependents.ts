import { type Environment, SkillshelfError } from "@skillshelf/core";
import { newlyBrokenDependents, readPackageSnapshot, snapshotAfter } from "./snapshot.js";
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
  const before = readPackageSnapshot(input.environment);
  const broken = newlyBrokenDependents(before, snapshotAfter(before, input));
  if (broken.length === 0) return;
  const names = broken.map(
    (dependent) => `${dependent.scope}:${dependent.id} (needs ${dependent.missing.join(", ")})`,
  );
  throw new SkillshelfError(
    "dependents",
    `${input.change === "remove" ? "removing" : "disabling"} ${input.scope}:${input.id} would break ${names.join("; ")}`,
    {
      details: { dependents: broken, change: input.change },
    },
  );
}
