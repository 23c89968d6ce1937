import type { Environment, PackageScope } from "@skillshelf/core";
import { packageConsentKey, readConsents, type ScopeCache } from "@skillshelf/store";
import type { CapabilityDiff } from "./capabilities.js";

/**
 * Whether the trust given to the package `id` (bound to its files) ends once its files become
 * those of `digest`: a trusted plugin's update takes its skills from the model until trusted again.
 */
export function trustEndsWith(
  target: {
    readonly environment: Environment;
    readonly scope: PackageScope;
    readonly cache: ScopeCache | undefined;
  },
  id: string,
  digest: string,
): boolean {
  const consents = readConsents(target.environment, target.scope, target.cache);
  const consent = consents.ok ? consents.value.value.trusted[packageConsentKey(id)] : undefined;
  return consent !== undefined && consent.digest !== digest;
}

export function withTrustEnding(diff: CapabilityDiff, ends: boolean): CapabilityDiff {
  return ends ? { ...diff, trustEnds: true, unchanged: false } : diff;
}
