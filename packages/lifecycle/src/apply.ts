import { CODES, type Environment, isSkillshelfError, resolveEnvironment } from "@skillshelf/core";
import {
  assertFactsCurrent,
  observeCopyFacts,
  type ScopeCache,
  type WriteResult,
} from "@skillshelf/store";
import {
  installPackage,
  removePackage,
  rollbackPackage,
  setEnabled,
  withScopeLock,
} from "@skillshelf/store/writers";
import { FAULT_POINT } from "./_fault-point.js";
import { releasePlan } from "./plan.js";
import type {
  ApplyOptions,
  ApplyResult,
  LifecyclePlan,
  OutcomeErrorCode,
  PlanStep,
  RefreshResult,
  ReviewedFact,
  StepOutcome,
} from "./types.js";
import { verifyStep } from "./verify.js";

/**
 * Apply a reviewed plan (DESIGN §5): its steps in order, each through its store writer, which
 * checks the reviewed facts again inside its scope lock (and, when a peer scope's copy was
 * reviewed, inside the peer scope's lock too). Each outcome is `committed`, `failed`, `refused`
 * or `unattempted`; after the first step that fails (or commits but does not read back) the rest
 * are unattempted, and committed writes are never rolled back. Every commit is read back
 * (`verifyStep`); the host `refresh` runs once after the commits and, when it succeeds, each
 * committed step is read back again. The plan's staging is released whatever happens.
 */
export async function applyLifecycle(
  plan: LifecyclePlan,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  try {
    const environment = resolveEnvironment({ ...plan.environment, env: {} });
    const applying: Applying = {
      environment,
      cache: options.cache,
      fault: (options as Record<symbol, unknown>)[FAULT_POINT],
    };
    const outcomes: StepOutcome[] = [];
    let stopped = !plan.applicable;
    for (const [index, step] of plan.steps.entries()) {
      if (step.refusal !== undefined) {
        outcomes.push({
          status: "refused",
          step: identity(step),
          diagnostics: [],
          error: outcomeError("refused", step.refusal.message, step.refusal.code),
        });
        continue;
      }
      if (stopped) {
        outcomes.push({ status: "unattempted", step: identity(step), diagnostics: [] });
        continue;
      }
      options.progress?.({ phase: "apply", ref: step.ref, index, count: plan.steps.length });
      const outcome = runStep(applying, step);
      outcomes.push(outcome);
      if (outcome.status !== "committed" || outcome.error !== undefined) stopped = true;
    }
    const committed = outcomes.filter((outcome) => outcome.status === "committed");
    const refresh = await runRefresh(options, committed.length);
    const final =
      refresh.status === "refreshed"
        ? outcomes.map((outcome, index) =>
            outcome.status === "committed"
              ? withVerification(
                  outcome,
                  verifyStep(
                    environment,
                    plan.steps[index] as PlanStep,
                    "post-refresh",
                    options.cache,
                  ),
                )
              : outcome,
          )
        : outcomes;
    const count = (status: StepOutcome["status"]) =>
      final.filter((outcome) => outcome.status === status).length;
    return {
      planId: plan.id,
      outcomes: final,
      committed: count("committed"),
      failed: count("failed"),
      refused: count("refused"),
      unattempted: count("unattempted"),
      refresh,
    };
  } finally {
    releasePlan(plan);
  }
}

// --- internal ---

/** What every step of one apply is run with. */
interface Applying {
  readonly environment: Environment;
  readonly cache: ScopeCache | undefined;
  /** Store's fault hook (tests only, see `dist/testing.js`), passed on to each writer. */
  readonly fault: unknown;
}

function identity(step: PlanStep): StepOutcome["step"] {
  const { operation, ref, id, kind, scope } = step;
  return { operation, ref, id, kind, scope };
}

function outcomeError(
  code: OutcomeErrorCode,
  message: string,
  cause?: string,
  changed?: Readonly<Record<string, unknown>>,
): NonNullable<StepOutcome["error"]> {
  return {
    code,
    message,
    next: CODES[code].hint,
    ...(cause === undefined || cause === code ? {} : { cause: cause as never }),
    ...(changed === undefined ? {} : { changed }),
  };
}

function runStep(applying: Applying, step: PlanStep): StepOutcome {
  const { environment, cache } = applying;
  const [own, peer] = step.expected;
  let result: WriteResult;
  try {
    const write = () => writer(applying, step, own);
    result =
      peer === undefined
        ? write()
        : withScopeLock({ environment, scope: peer.scope }, () => {
            assertPeerCurrent(applying, peer);
            return write();
          });
  } catch (error) {
    if (!isSkillshelfError(error)) throw error;
    const code: OutcomeErrorCode =
      error.code === "stale_plan" || error.code === "locked"
        ? error.code
        : error.code === "dependents"
          ? "refused"
          : "writer";
    return {
      status: "failed",
      step: identity(step),
      diagnostics: [],
      error: outcomeError(
        code,
        error.message,
        error.code,
        error.code === "stale_plan" ? (error.details as Record<string, unknown>) : undefined,
      ),
    };
  }
  const outcome: StepOutcome = {
    status: "committed",
    step: identity(step),
    ...(result.packageBackup === undefined
      ? {}
      : { recovery: { packageBackup: result.packageBackup } }),
    diagnostics: result.diagnostics,
  };
  return withVerification(outcome, verifyStep(environment, step, "pre-refresh", cache));
}

function writer(applying: Applying, step: PlanStep, own: ReviewedFact | undefined): WriteResult {
  const { environment, cache, fault } = applying;
  const target = {
    environment,
    scope: step.scope,
    cache,
    ...(fault === undefined ? {} : { [FAULT_POINT]: fault }),
  };
  const reviewed = own?.facts ?? observeCopyFacts({ ...target, id: step.id });
  switch (step.operation) {
    case "install":
    case "update": {
      const source = step.source;
      if (source === undefined)
        throw new Error(`lifecycle: ${step.operation} step without a source`);
      return installPackage({
        ...target,
        // the plan's staging is released after the apply: the writer may move it in
        staged: { dir: source.dir, digest: source.digest, disposable: true },
        origin: source.origin,
        reviewed,
        expected: { id: step.id, kind: step.kind, version: step.version, digest: source.digest },
        keepPrevious: step.operation === "update",
        enabled: step.enabled,
      });
    }
    case "rollback":
      return rollbackPackage({ ...target, id: step.id, reviewed });
    case "enable":
    case "disable":
      return setEnabled({ ...target, id: step.id, enabled: step.operation === "enable", reviewed });
    case "remove":
      return removePackage({ ...target, id: step.id, reviewed });
  }
}

function assertPeerCurrent(applying: Applying, peer: ReviewedFact): void {
  const { environment, cache } = applying;
  const observed = observeCopyFacts({ environment, scope: peer.scope, id: peer.id, cache });
  assertFactsCurrent({ scope: peer.scope, id: peer.id, reviewed: peer.facts, observed });
}

function withVerification(
  outcome: StepOutcome,
  verification: StepOutcome["verification"],
): StepOutcome {
  if (verification === undefined) return outcome;
  const { error: _previous, ...rest } = outcome;
  return {
    ...rest,
    verification,
    ...(verification.ok
      ? {}
      : {
          error: outcomeError(
            "verification",
            `the ${outcome.step.scope} copy of ${outcome.step.id} reads back tree=${verification.tree} record=${verification.record}`,
          ),
        }),
  };
}

async function runRefresh(options: ApplyOptions, committed: number): Promise<RefreshResult> {
  if (committed === 0) return { status: "not-applicable", reason: "nothing was committed" };
  if (options.refresh === undefined)
    return { status: "not-applicable", reason: "no host to refresh in this process" };
  try {
    await options.refresh();
    return { status: "refreshed" };
  } catch (error) {
    return { status: "failed", error: error instanceof Error ? error.message : String(error) };
  }
}
