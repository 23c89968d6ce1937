// The policy in force, applied to an install or update step when it is planned.
import { atOrAbove, type Severity } from "@skillshelf/audit";
import { createDiagnostic, type PackageSource } from "@skillshelf/core";
import {
  advisoryFor,
  type PolicyViolation,
  policyThreshold,
  policyViolations,
  type SourceFacts,
} from "@skillshelf/policy";
import { isSourcePinned, type StagedSource, sourcePlace } from "@skillshelf/sources";
import type { PackageManifest } from "@skillshelf/store";
import { packageSkills } from "./_package-skills.js";
import type { Planning } from "./_planning.js";
import { advisoryRefusal } from "./advisories.js";
import type { Refusal } from "./types.js";

/** The threshold a step's audit refuses at: the request's or the policy's, whichever is lower. */
export function auditThreshold(planning: {
  readonly request: Pick<Planning["request"], "audit">;
  readonly policy: Planning["policy"];
}): Severity {
  const byPolicy = policyThreshold(planning.policy);
  const asked = planning.request.audit?.threshold;
  return asked !== undefined && !atOrAbove(asked, byPolicy) ? asked : byPolicy;
}

/**
 * Why the policy refuses a staged package: the first rule it breaks, named with the file that
 * sets it (every rule broken in `details.violations`); `undefined` when it may be installed. A
 * package's skills are read only when a rule concerns them.
 */
export function policyRefusal(
  planning: Pick<Planning, "environment" | "policy" | "advisories">,
  step: {
    readonly id: string;
    readonly staged: StagedSource;
    readonly manifest: PackageManifest;
    readonly highest?: Severity | undefined;
  },
): Refusal | undefined {
  const { policy } = planning;
  const signer = step.staged.signers?.["."];
  const concernsSkills = policy.blockedSkills.length > 0 || policy.allowedTools.length > 0;
  const skills = concernsSkills
    ? packageSkills(planning.environment, {
        id: step.id,
        dir: step.staged.dir,
        manifest: step.manifest,
      }).map((skill) => ({ name: skill.name, allowedTools: skill.allowedTools }))
    : [];
  const violations = policyViolations(policy, {
    id: step.id,
    source: sourceFacts(step.staged.source),
    skills,
    highest: step.highest,
    signature: signer === undefined ? { missing: true } : { fingerprint: signer },
  });
  // an advisory followed here that names this tree or its source refuses it first
  const revoked = advisoryFor(planning.advisories, {
    digest: step.staged.digest,
    source: step.staged.source,
  });
  if (revoked !== undefined) return advisoryRefusal(revoked, step.id);
  return violationRefusal(violations);
}

/** What the policy judges of a source, as its fetcher says it. */
export function sourceFacts(source: PackageSource): SourceFacts {
  return { type: source.type, place: sourcePlace(source), pinned: isSourcePinned(source) };
}

/**
 * The refusal for the first rule of `violations` (all of them in its details), naming `path`,
 * what it judged, when given; or none.
 */
export function violationRefusal(
  violations: readonly PolicyViolation[],
  path?: string,
): Refusal | undefined {
  const [first] = violations;
  if (first === undefined) return undefined;
  return createDiagnostic(
    "error",
    first.code,
    `${path === undefined ? "" : `${path}: `}${first.message} (${first.rule}, set in ${first.file})`,
    {
      ...(path === undefined ? {} : { path }),
      details: { rule: first.rule, file: first.file, violations },
    },
  );
}
