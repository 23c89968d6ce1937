// The steps of a plan that install or update a staged package, and refusals; changes to an
// installed copy, and the table of every operation, are `_operations.ts`.
import {
  createDiagnostic,
  identityKey,
  type PackageScope,
  type PackageSource,
  sameJson,
} from "@skillshelf/core";
import { describeSource, type IndexRow, type StagedSource } from "@skillshelf/sources";
import {
  copyOf,
  type InstallRecord,
  type PackageManifest,
  type PackageOrigin,
  type PackageSnapshot,
} from "@skillshelf/store";
import { auditStaged, type CarriedVerdict, carriedAudit } from "./_audit.js";
import { contentRefusal } from "./_content.js";
import { type StagedOperation, stagedOperation } from "./_operations.js";
import { stepLinks } from "./_package-skills.js";
import type { Planning } from "./_planning.js";
import { auditThreshold, policyRefusal } from "./_policy.js";
import { refusal } from "./_refusal.js";
import { lockedEntry, reviewFacts } from "./_review.js";
import { trustEndsWith, withTrustEnding } from "./_trust-ending.js";
import { capabilityDiff } from "./capabilities.js";
import type { Operation, PlanStep, Refusal, StepSource } from "./types.js";

/**
 * An install (or update) step for a staged package: its reviewed facts, the lock entry it
 * writes, what it replaces, and the checks of what an index pinned. `undefined` when the scope
 * already holds exactly this package and its links: nothing to do, which an info
 * `already_installed` says.
 */
export function installStep(
  planning: Planning,
  input: {
    readonly operation: StagedOperation;
    readonly scope: PackageScope;
    readonly staged: StagedSource;
    readonly manifest: PackageManifest;
    readonly origin: PackageOrigin;
    readonly pinned?: {
      readonly version?: string | undefined;
      readonly digest?: string | undefined;
    };
    readonly refusal?: Refusal | undefined;
    /** Rules approved earlier for exactly these bytes (the lock's, on a restore). */
    readonly approved?: readonly string[] | undefined;
    /** The signer the lock records, on a restore: the fetch must find the same. */
    readonly signer?: string | undefined;
    /**
     * An audit verdict carried with these exact bytes by someone the policy trusts (a bundle
     * signed by a key of `signatures.keys`), taken instead of auditing again.
     */
    readonly verdict?: CarriedVerdict | undefined;
  },
): PlanStep | undefined {
  const { environment, snapshot } = planning;
  const { scope, staged, manifest, operation } = input;
  const spec = stagedOperation(operation);
  const id = manifest.id;
  const existing = copyOf(snapshot, scope, id);
  const threshold = auditThreshold(planning);
  const audited =
    input.verdict === undefined
      ? auditStaged(
          planning.audits.get(staged) ?? staged.dir,
          { ...planning.request.audit, threshold },
          [...(input.approved ?? []), ...approvedBefore(existing?.record, staged.digest)],
        )
      : carriedAudit(input.verdict, threshold);
  const signer = staged.signers?.["."];
  const record: InstallRecord = {
    kind: manifest.kind,
    ...(manifest.version === undefined ? {} : { version: manifest.version }),
    format: manifest.format,
    installedAt: new Date().toISOString(),
    origin: input.origin,
    contentDigest: staged.digest,
    trust: manifest.format === "claude-code" ? "foreign" : "trusted",
    audit: audited.record,
    ...(signer === undefined ? {} : { signer }),
    ...(manifest.requires.length === 0 ? {} : { requires: [...manifest.requires] }),
  };
  const enabledAfter = existing?.record === undefined ? true : existing.enabled;
  const before = lockedEntry(planning.review, scope, id);
  const review = reviewFacts(planning.review, scope, id, snapshot);
  const source: StepSource = {
    source: staged.source,
    dir: staged.dir,
    digest: staged.digest,
    origin: input.origin,
  };
  let refused =
    input.refusal ??
    ("refusal" in review ? review.refusal : undefined) ??
    ("refusal" in before ? before.refusal : undefined) ??
    pinRefusal(manifest, staged.digest, input.pinned) ??
    contentRefusal(environment, staged.dir, manifest, planning.skillFiles) ??
    signerRefusal(id, signer, input.signer) ??
    policyRefusal(planning, { id, staged, manifest, highest: audited.audit.highest }) ??
    audited.refusal;
  const wanted =
    planning.request.links === undefined || refused !== undefined
      ? undefined
      : stepLinks(
          { environment, links: planning.request.links, cache: planning.request.cache },
          { scope, id, dir: staged.dir, manifest },
          planning.diagnostics,
        );
  if (wanted !== undefined && "refusal" in wanted) refused = wanted.refusal;
  const links = wanted !== undefined && "links" in wanted ? wanted.links : undefined;
  if (refused === undefined && spec.repairs && existing?.record !== undefined) {
    // a copy whose tree is gone or holds other bytes than its record is repaired by the same
    // package; one that holds exactly it is left as it is, and only the links missing are made
    const same =
      existing.record.contentDigest === staged.digest && existing.observedDigest === staged.digest;
    // a verdict that differs (a newer rule table, new approvals) is recorded anew
    const sameVerdict = sameJson(existing.record.audit, audited.record);
    if (same && sameVerdict && links?.some((link) => !link.inPlace) !== true) {
      planning.diagnostics.push(
        createDiagnostic("info", "already_installed", `${scope}:${id} is already installed`, {
          path: existing.dir,
          details: { id, scope },
        }),
      );
      return undefined;
    }
    // the same package over a copy edited by hand (or gone) is a repair, which --force makes
    if (!same && planning.request.force !== true)
      refused =
        existing.record.contentDigest === staged.digest
          ? refusal(
              "local_changes",
              `${scope}:${id} has files that differ from what was installed`,
              {
                scope,
                id,
              },
            )
          : refusal("installed_differs", `${scope}:${id} is already installed from other content`, {
              scope,
              id,
            });
  }
  const capabilities =
    spec.replaces && existing?.manifest !== undefined
      ? withTrustEnding(
          capabilityDiff(
            environment,
            { id, dir: existing.dir, manifest: existing.manifest },
            { id, dir: staged.dir, manifest },
            planning.skillFiles,
          ),
          trustEndsWith({ environment, scope, cache: planning.request.cache }, id, staged.digest),
        )
      : undefined;
  return {
    operation,
    ref: identityKey(manifest.kind, id),
    id,
    kind: manifest.kind,
    scope,
    ...(manifest.version === undefined ? {} : { version: manifest.version }),
    source,
    expected: "facts" in review ? review.facts : [],
    requires: manifest.requires,
    dependents: { newlyBroken: [], preexisting: [] },
    effectiveAfter: {
      scope: effectiveScopeAfterInstall(snapshot, id, scope),
      loadable: enabledAfter,
    },
    recovery: existing === undefined ? spec.recovery.fresh : spec.recovery.over,
    ...(capabilities === undefined ? {} : { capabilities }),
    audit: audited.audit,
    lock: {
      before: "entry" in before ? before.entry : null,
      after: planning.review.lockEntryAfter(scope, id, record, enabledAfter),
    },
    model: modelView(manifest, source.source, {
      enabled: enabledAfter,
      effective: effectiveScopeAfterInstall(snapshot, id, scope) === scope,
    }),
    ...(links === undefined ? {} : { links }),
    ...(refused === undefined ? {} : { refusal: refused }),
  };
}

/** Whether an installed package's skills reach a model, and if not why and what would change it. */
function modelView(
  manifest: PackageManifest,
  source: PackageSource,
  copy: { readonly enabled: boolean; readonly effective: boolean },
): NonNullable<PlanStep["model"]> {
  if (manifest.format === "claude-code")
    return {
      given: false,
      reason:
        "it is a Claude Code plugin, installed as foreign: its skills are listed but never given to a model, since Skillshelf does not run the hooks and servers such a plugin may rely on",
      next: `once installed, skillshelf trust ${manifest.id} gives its skills to a model (bound to its files); or take its skills as your own: skillshelf install ${describeSource(source)} --skill '*'`,
    };
  if (!copy.enabled)
    return {
      given: false,
      reason: "the copy stays disabled",
      next: `skillshelf enable ${manifest.id}`,
    };
  if (!copy.effective)
    return {
      given: false,
      reason: "the project's copy of the same package counts instead",
      next: `install it into the project, or remove the project's copy: skillshelf remove ${manifest.id} --project`,
    };
  return { given: true };
}

/** A step for a target that could not be resolved at all. */
export function refusedStep(
  target: string,
  scope: PackageScope,
  operation: Operation,
  refused: Refusal,
): PlanStep {
  return {
    operation,
    ref: target,
    id: target,
    kind: "plugin",
    scope,
    expected: [],
    requires: [],
    dependents: { newlyBroken: [], preexisting: [] },
    effectiveAfter: null,
    recovery: "nothing is done",
    lock: { before: null, after: null },
    refusal: refused,
  };
}

// a step, unless there was nothing to do
export function pushStep(steps: PlanStep[], step: PlanStep | undefined): void {
  if (step !== undefined) steps.push(step);
}

/** Where a staged package came from, as its install record keeps it. */
export function originOf(staged: StagedSource, row: IndexRow | undefined): PackageOrigin {
  return {
    source: staged.source,
    ...(staged.commit === undefined ? {} : { commit: staged.commit }),
    ...(row === undefined ? {} : { index: row.index }),
    ...(staged.mirror === undefined ? {} : { mirror: staged.mirror }),
  };
}

// --- internal ---

/** A restore's refusal when the lock records a signer and what was fetched is not signed by it. */
function signerRefusal(
  id: string,
  signer: string | undefined,
  locked: string | undefined,
): Refusal | undefined {
  if (locked === undefined || locked === signer) return undefined;
  return refusal(
    signer === undefined ? "signature_missing" : "signature_invalid",
    `the lock records ${id} as signed by ${locked}, and what was fetched ${signer === undefined ? "is not signed" : `is signed by ${signer}`}`,
    { expected: locked, ...(signer === undefined ? {} : { observed: signer }) },
  );
}

/** The rules approved for the copy's recorded tree, when the staged tree is that same tree. */
function approvedBefore(record: InstallRecord | undefined, digest: string): readonly string[] {
  return record?.contentDigest === digest ? (record.audit?.approved ?? []) : [];
}

function pinRefusal(
  manifest: PackageManifest,
  digest: string,
  pinned:
    | { readonly version?: string | undefined; readonly digest?: string | undefined }
    | undefined,
): Refusal | undefined {
  if (pinned?.digest !== undefined && pinned.digest !== digest)
    return refusal(
      "digest_mismatch",
      `${manifest.id} digests to ${digest}, not the pinned ${pinned.digest}`,
      {
        expected: pinned.digest,
        observed: digest,
      },
    );
  if (pinned?.version !== undefined && pinned.version !== manifest.version)
    return refusal(
      "identity_mismatch",
      `${manifest.id} is version ${String(manifest.version)}, not the pinned ${pinned.version}`,
      { expected: pinned.version, observed: manifest.version },
    );
  return undefined;
}

function effectiveScopeAfterInstall(
  snapshot: PackageSnapshot,
  id: string,
  scope: PackageScope,
): PackageScope {
  if (scope === "project") return "project";
  const project = copyOf(snapshot, "project", id);
  return project?.valid === true ? "project" : "user";
}
