// What every planner works with, and how a plan is sealed (shared by planLifecycle and restoreFromLock).
import type { AuditReport, CodeParsers } from "@skillshelf/audit";
import {
  copyKey,
  type Diagnostic,
  type Environment,
  type PackageScope,
  randomHex,
  sameJson,
} from "@skillshelf/core";
import type { EffectivePolicy, KeptFeed } from "@skillshelf/policy";
import type { SkillCache } from "@skillshelf/skills-loader";
import type { LibraryDiscovery, StagedSource } from "@skillshelf/sources";
import type { PackageSnapshot, StoreReview } from "@skillshelf/store";
import { refusal } from "./_refusal.js";
import type { StagingSet } from "./_staging.js";
import type { LifecyclePlan, LifecycleRequest, Operation, PlanStep } from "./types.js";

/** What planning works with. */
export interface Planning {
  readonly environment: Environment;
  readonly request: Pick<
    LifecycleRequest,
    | "scope"
    | "force"
    | "withRequirements"
    | "keepStaging"
    | "frozen"
    | "allOrNothing"
    | "ref"
    | "stage"
    | "targets"
    | "cache"
    | "skills"
    | "fullDepth"
    | "plugins"
    | "progress"
    | "links"
    | "fetches"
    | "audit"
  >;
  readonly snapshot: PackageSnapshot;
  readonly discovery: LibraryDiscovery;
  /** The policy in force, read once per plan. */
  readonly policy: EffectivePolicy;
  /** The advisory feeds kept here, read once per plan: a copy one revokes is not installed. */
  readonly advisories: readonly KeptFeed[];
  readonly staging: StagingSet;
  /** The audits taken as staging read a tree for its digest, by the staged tree: not read again. */
  readonly audits: WeakMap<StagedSource, AuditReport>;
  /** What the plan reads of the store to review its steps (each scope's lock read once). */
  readonly review: StoreReview;
  /** The skill files read while planning (a collection's, found and read where staged): not read again while unchanged. */
  readonly skillFiles: SkillCache;
  /**
   * The parsers the audit reads code with, its grammars loaded at the first code met; without
   * them (a check that installs nothing) code is read by the line rules only.
   */
  readonly codeParsers?: CodeParsers | undefined;
  readonly diagnostics: Diagnostic[];
}

/** Planning before the snapshot is read. */
export type Unread = Omit<Planning, "snapshot">;

/** What staging a source needs of planning (no snapshot, no policy, no lock). */
export type StagePlanning = Omit<Unread, "policy" | "review" | "advisories">;

/**
 * Seal a plan: refuse every step when a policy file does not read (`policy_invalid`), steps in a scope whose lock is ahead of its state (`lock_ahead`, unless
 * the plan is the one that catches up) or any change to a lock under `frozen`, drop reviewed facts
 * of copies an earlier step writes (a plan cannot stale itself), release the staging of a plan
 * that cannot be applied, and attach the staging as a property outside the data.
 */
export function finishPlan(
  planning: Unread,
  operation: Operation | "restore",
  built: readonly PlanStep[],
): LifecyclePlan {
  const { environment, request } = planning;
  const ahead = new Map<PackageScope, string[]>();
  // the copies the steps before this one write
  const written = new Set<string>();
  const steps = built.map((step) => {
    const expected = step.expected.filter((fact) => !written.has(copyKey(fact)));
    written.add(copyKey(step));
    let refused = planning.policy.invalid ?? step.refusal;
    if (refused === undefined && operation !== "restore") {
      const pending = ahead.get(step.scope) ?? planning.review.lockAhead(step.scope);
      ahead.set(step.scope, pending);
      if (pending.length > 0)
        refused = refusal(
          "lock_ahead",
          `the ${step.scope} lock pins ${pending.join(", ")}, which ${pending.length === 1 ? "is" : "are"} not installed`,
          { ids: pending },
        );
    }
    if (
      refused === undefined &&
      request.frozen === true &&
      !sameJson(step.lock.before, step.lock.after)
    )
      refused = refusal("lock_frozen", `${step.ref} would change the ${step.scope} lock`);
    return { ...step, expected, ...(refused === undefined ? {} : { refusal: refused }) };
  });
  const stops = (step: PlanStep) =>
    step.refusal !== undefined && (step.refusal.alone !== true || request.allOrNothing === true);
  const applicable =
    !steps.some(stops) && (steps.length === 0 || steps.some((step) => step.refusal === undefined));
  // a plan that will not be applied, or has nothing to apply, holds nothing staged (unless a
  // preview asked to read it: its caller releases it)
  if ((!applicable || steps.length === 0) && request.keepStaging !== true)
    planning.staging.release();
  const plan = {
    version: 1 as const,
    id: randomHex(8),
    createdAt: new Date().toISOString(),
    project: environment.project,
    environment: {
      cwd: environment.cwd,
      project: environment.project,
      home: environment.home,
      configDir: environment.configDir,
    },
    request: {
      operation,
      targets: [...request.targets],
      ...(request.scope === undefined ? {} : { scope: request.scope }),
      force: request.force === true,
      withRequirements: request.withRequirements === true,
      frozen: request.frozen === true,
      allOrNothing: request.allOrNothing === true,
      ...(request.ref === undefined ? {} : { ref: request.ref }),
      ...(request.skills === undefined ? {} : { skills: [...request.skills] }),
      ...(request.plugins === undefined ? {} : { plugins: [...request.plugins] }),
      ...(request.links === undefined ? {} : { links: request.links }),
      ...(request.audit === undefined ? {} : { audit: request.audit }),
    },
    steps,
    applicable,
    diagnostics: [...planning.policy.diagnostics, ...planning.diagnostics],
  };
  // the staging is the plan's, but not part of its data: JSON and canonical JSON leave it out
  return Object.defineProperty(plan, "staging", {
    value: planning.staging,
    enumerable: false,
  }) as typeof plan & { readonly staging: StagingSet };
}
