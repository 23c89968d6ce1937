import { createCodeParsers } from "@skillshelf/audit";
import {
  type Environment,
  identityKey,
  type PackageScope,
  type PackageSource,
  type ReadResult,
} from "@skillshelf/core";
import { readAdvisories, readPolicy, signatureViolations } from "@skillshelf/policy";
import { createSkillCache } from "@skillshelf/skills-loader";
import {
  discoverLibrary,
  type LibraryDiscovery,
  type OpenedBundle,
  openBundle,
  type StageOptions,
  sourcePinnedAt,
} from "@skillshelf/sources";
import {
  copyOf,
  createStoreReview,
  type LockedPackage,
  type LockFile,
  lockedSource,
  lockFileOf,
  readLockFile,
  readPackageSnapshot,
  readScopeState,
  type ScopeCache,
} from "@skillshelf/store";
import { type CarriedVerdict, verdictHolds } from "./_audit.js";
import { copyStep } from "./_operations.js";
import { finishPlan, type Planning } from "./_planning.js";
import { auditThreshold, violationRefusal } from "./_policy.js";
import { refusal, refusalOf } from "./_refusal.js";
import { type Staged, stageFetched } from "./_stage.js";
import { stageEach } from "./_stage-each.js";
import { createStagingSet } from "./_staging.js";
import { installStep, refusedStep } from "./_steps.js";
import type { LifecyclePlan, LifecycleRequest, PlanStep, Refusal } from "./types.js";

/**
 * Plan what makes a scope match its lock, the fresh-clone and new-machine case:
 * install every pinned package that is missing (from the state or from the disk) or differs,
 * from its locked source at the exact
 * commit, refusing with `digest_mismatch` when the source no longer yields the pinned tree; set
 * each copy's enabled flag as the lock says; remove what the lock no longer lists. The lock itself
 * does not change, so this plan passes `frozen`.
 */
export async function restoreFromLock(input: {
  readonly environment: Environment;
  readonly scope: PackageScope;
  readonly frozen?: boolean | undefined;
  readonly discovery?: LibraryDiscovery | undefined;
  readonly stage?: StageOptions | undefined;
  readonly cache?: ScopeCache | undefined;
  readonly progress?: LifecycleRequest["progress"];
  readonly audit?: LifecycleRequest["audit"];
  readonly codeParsers?: LifecycleRequest["codeParsers"];
  /**
   * An offline bundle (`skillshelf bundle create`) to restore from instead: its lock is the one
   * restored, every package comes from it (nothing is fetched), and it is refused whole when one
   * byte of it changed, or when the policy requires signatures it does not carry.
   */
  readonly bundle?: string | undefined;
}): Promise<LifecyclePlan> {
  const { environment, scope, cache, progress } = input;
  const planning: Planning = {
    environment,
    request: {
      targets: [],
      scope,
      force: true,
      frozen: input.frozen,
      stage: input.stage,
      cache,
      progress,
      audit: input.audit,
    },
    snapshot: readPackageSnapshot(environment, { cache }),
    discovery: input.discovery ?? discoverLibrary(environment),
    policy: readPolicy(environment),
    advisories: readAdvisories(environment).feeds,
    staging: createStagingSet(),
    audits: new WeakMap(),
    skillFiles: createSkillCache(),
    codeParsers: input.codeParsers ?? createCodeParsers(),
    review: createStoreReview(environment, cache),
    diagnostics: [],
  };
  try {
    // a scope whose state cannot be read is never restored over
    const state = readScopeState(environment, scope, cache);
    if (!state.ok) {
      const [first] = state.diagnostics;
      return finishPlan(planning, "restore", [
        refusedStep(
          "state.json",
          scope,
          "install",
          refusal("state_invalid", first?.message ?? "state.json cannot be read", {
            diagnostics: state.diagnostics,
          }),
        ),
      ]);
    }
    const bundle =
      input.bundle === undefined ? undefined : await openedBundle(planning, input.bundle);
    if (bundle !== undefined && "refusal" in bundle)
      return finishPlan(planning, "restore", [
        refusedStep("bundle", scope, "install", bundle.refusal),
      ]);
    const lock =
      bundle === undefined ? readLockFile(environment, scope, cache) : bundledLock(bundle);
    if (!lock.ok) {
      const [first] = lock.diagnostics;
      return finishPlan(planning, "restore", [
        refusedStep(
          "lock.json",
          scope,
          "install",
          refusal("lock_invalid", first?.message ?? "lock.json cannot be read", {
            diagnostics: lock.diagnostics,
          }),
        ),
      ]);
    }
    const pinned = lock.value.value.packages;
    const steps: PlanStep[] = [];
    // a bundle signed by a key the policy names vouches for the verdicts its lock carries
    const verdicts = trustedVerdicts(planning, bundle, pinned);
    // the disk, not only the state, must hold what the lock pins: a missing tree is restored
    const missing = Object.keys(pinned)
      .sort()
      .flatMap((id) => {
        const entry = pinned[id] as LockedPackage;
        const copy = copyOf(planning.snapshot, scope, id);
        if (copy?.record?.contentDigest !== entry.digest || copy.observedDigest !== entry.digest)
          return [{ id, entry, source: lockedSource(environment, scope, entry) }];
        if (copy.enabled !== entry.enabled)
          steps.push(copyStep(planning, entry.enabled ? "enable" : "disable", copy));
        return [];
      });
    // what several packages share (one repository at one commit) is fetched once; from a
    // bundle, nothing is fetched
    const staged =
      bundle === undefined
        ? await stageEach(
            planning,
            missing.map(({ entry, source }) => pinnedAt(source, entry)),
          )
        : await stagedEachFromBundle(planning, bundle, missing, verdicts);
    for (const [index, { id, entry, source }] of missing.entries()) {
      const one = staged[index] as Staged;
      if ("refusal" in one) {
        steps.push(refusedStep(identityKey(entry.kind, id), scope, "install", one.refusal));
        continue;
      }
      const mismatch =
        one.staged.digest === entry.digest
          ? undefined
          : refusal(
              "digest_mismatch",
              `${identityKey(entry.kind, id)} from its locked source digests to ${one.staged.digest}, not the pinned ${entry.digest}`,
              { expected: entry.digest, observed: one.staged.digest },
            );
      const step = installStep(planning, {
        operation: "install",
        scope,
        staged: one.staged,
        manifest: one.manifest,
        origin: {
          source,
          ...(entry.commit === undefined ? {} : { commit: entry.commit }),
          ...(entry.index === undefined ? {} : { index: entry.index }),
          // the mirror that served it this time, whatever served it when it was locked
          ...(one.staged.mirror === undefined ? {} : { mirror: one.staged.mirror }),
        },
        pinned: { version: entry.version, digest: entry.digest },
        refusal: mismatch,
        // the lock's approvals hold for the bytes it pins, which a mismatch refuses otherwise
        approved: entry.audit?.approved,
        signer: entry.signer,
        verdict: verdicts.get(id),
      });
      if (step === undefined) continue;
      steps.push({
        ...step,
        enabled: entry.enabled,
        lock: {
          ...step.lock,
          after: step.lock.after === null ? null : { ...step.lock.after, enabled: entry.enabled },
        },
      });
    }
    for (const copy of planning.snapshot.copies)
      if (copy.scope === scope && copy.record !== undefined && pinned[copy.id] === undefined)
        steps.push(copyStep(planning, "remove", copy));
    return finishPlan(planning, "restore", steps);
  } catch (error) {
    planning.staging.release();
    throw error;
  }
}

// --- internal ---

/** A source fetched at the locked commit rather than its branch, where it has commits. */
function pinnedAt(source: PackageSource, entry: LockedPackage): PackageSource {
  return sourcePinnedAt(source, entry.commit);
}

/**
 * The bundle at `file` opened (every tree checked against it, its signature verified), held by
 * the plan's staging; or why it is refused: it does not open, or the policy requires signatures
 * and it carries none, or its signer is not one the policy names.
 */
async function openedBundle(
  planning: Planning,
  file: string,
): Promise<OpenedBundle | { readonly refusal: Refusal }> {
  let bundle: OpenedBundle;
  try {
    bundle = planning.staging.add(
      await openBundle(file, { tempDir: planning.request.stage?.tempDir }),
    );
  } catch (error) {
    return { refusal: refusalOf(error) };
  }
  const violations = signatureViolations(
    planning.policy,
    file,
    bundle.signer === undefined ? { missing: true } : { fingerprint: bundle.signer },
  );
  const refused = violationRefusal(violations, file);
  return refused === undefined ? bundle : { refusal: refused };
}

/** The lock a bundle carries, read as a lock file is. */
function bundledLock(bundle: OpenedBundle): ReadResult<{ readonly value: LockFile }> {
  const lock = lockFileOf(bundle.manifest.lock);
  return lock === undefined
    ? {
        ok: false,
        diagnostics: [
          refusal("bundle_invalid", "the bundle's lock is not a lock Skillshelf reads", {}),
        ],
      }
    : { ok: true, value: { value: lock }, diagnostics: [] };
}

/**
 * The audit verdicts a bundle carries that are taken instead of auditing its trees again: only
 * from a bundle signed by a key every `signatures.keys` list of the policy names (one list at
 * least), made under this rule table and finding nothing at or above the threshold in force.
 */
function trustedVerdicts(
  planning: Planning,
  bundle: OpenedBundle | undefined,
  pinned: Readonly<Record<string, LockedPackage>>,
): ReadonlyMap<string, CarriedVerdict> {
  const by = bundle?.signer;
  const { policy } = planning;
  if (
    by === undefined ||
    policy.signatureKeys.length === 0 ||
    signatureViolations(policy, "the bundle", { fingerprint: by }).length > 0
  )
    return new Map();
  const threshold = auditThreshold(planning);
  return new Map(
    Object.entries(pinned).flatMap(([id, entry]) =>
      entry.audit !== undefined && verdictHolds(entry.audit, threshold)
        ? [[id, { record: entry.audit, by }] as const]
        : [],
    ),
  );
}

/** Each of `missing` staged from the bundle, one after another, in order. */
async function stagedEachFromBundle(
  planning: Planning,
  bundle: OpenedBundle,
  missing: readonly { id: string; entry: LockedPackage; source: PackageSource }[],
  verdicts: ReadonlyMap<string, CarriedVerdict>,
): Promise<Staged[]> {
  const staged: Staged[] = [];
  for (const { id, entry, source } of missing)
    staged.push(
      await stagedFromBundle(
        planning,
        bundle,
        id,
        entry,
        pinnedAt(source, entry),
        !verdicts.has(id),
      ),
    );
  return staged;
}

/**
 * Package `id` staged from the bundle's tree, as if fetched from its locked source: its commit
 * and its signer as the lock (which the bundle's signature covers) records them.
 */
async function stagedFromBundle(
  planning: Planning,
  bundle: OpenedBundle,
  id: string,
  entry: LockedPackage,
  source: PackageSource,
  audit: boolean,
): Promise<Staged> {
  const tree = bundle.treeOf(id);
  if (tree === undefined)
    return {
      refusal: refusal(
        "bundle_incomplete",
        `the bundle's lock names ${id}, which it does not hold`,
        {
          id,
        },
      ),
    };
  const [staged] = await stageFetched(
    planning,
    {
      // digested as the bundle was opened: not read again
      dir: tree.dir,
      digest: tree.digest,
      source,
      ...(entry.commit === undefined ? {} : { commit: entry.commit }),
      ...(entry.signer === undefined ? {} : { signers: { ".": entry.signer } }),
      release: () => undefined,
    },
    undefined,
    undefined,
    audit,
  );
  return (
    staged ?? { refusal: refusal("bundle_incomplete", `${id} is empty in the bundle`, { id }) }
  );
}
