import {
  compareText,
  copyKey,
  type Environment,
  RESOURCE_KINDS,
  type ResourceKind,
} from "@skillshelf/core";
import { type Availability, beginPass } from "@skillshelf/resources";
import type { PackageSnapshot, ScopeCache } from "@skillshelf/store";

/** One resource an installed copy offers, as the loaders judged it. */
export interface OwnedResource {
  readonly kind: ResourceKind;
  readonly name: string;
  readonly availability: Availability;
}

/**
 * Every resource the loaders admit from each loadable copy of `snapshot`, keyed `scope:id`, in
 * kind, name and path order: what a change reads back from the copies it made. Unlike
 * `readInventory` it is not bounded, so a step's read-back never has to fall back to one read per
 * copy; it holds no descriptions, paths or findings, only what the read-back compares.
 */
export function readOwnedResources(input: {
  readonly environment: Environment;
  readonly snapshot: PackageSnapshot;
  readonly trustImports?: boolean | undefined;
  /** Reuse parses of unchanged scope files, as the snapshot's reader did. */
  readonly cache?: ScopeCache | undefined;
}): ReadonlyMap<string, readonly OwnedResource[]> {
  const admitted = beginPass(input.environment, {
    snapshot: input.snapshot,
    scopeCache: input.cache,
    trustImports: input.trustImports ?? false,
  })
    .admission()
    .resources.filter((resource) => resource.owner !== undefined)
    .sort(
      (a, b) =>
        RESOURCE_KINDS.indexOf(a.kind) - RESOURCE_KINDS.indexOf(b.kind) ||
        compareText(a.name, b.name) ||
        compareText(a.path, b.path),
    );
  const byOwner = new Map<string, OwnedResource[]>();
  for (const { owner, kind, name, availability } of admitted) {
    const key = owner === undefined ? "" : copyKey(owner);
    const list = byOwner.get(key) ?? [];
    list.push({ kind, name, availability });
    byOwner.set(key, list);
  }
  return byOwner;
}
