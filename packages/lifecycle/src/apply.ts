import { basename } from "node:path";
import {
  type Code,
  createDiagnostic,
  detailsOf,
  type Environment,
  isSkillshelfError,
  resolveEnvironment,
  type SkillshelfError,
} from "@skillshelf/core";
import { observeCopyFacts, type ScopeCache, type WriteResult } from "@skillshelf/store";
import {
  type InstallPackageInput,
  installPackages,
  type WriteBatch,
  withPeerReviewed,
} from "@skillshelf/store/writers";
import { FAULT_POINT } from "./_fault-point.js";
import { type CopyOperation, isCopyOperation, keepsPrevious, writeCopies } from "./_operations.js";
import { releasePlan } from "./plan.js";
import type {
  ApplyOptions,
  ApplyResult,
  LifecyclePlan,
  Operation,
  OutcomeErrorCode,
  PlanStep,
  RefreshResult,
  ReviewedFact,
  StepOutcome,
} from "./types.js";
import { verifyStep, verifySteps } from "./verify.js";

/**
 * Apply a reviewed plan: its steps in order, each through its store writer, which
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
    for (let index = 0; index < plan.steps.length; ) {
      const step = plan.steps[index] as PlanStep;
      if (step.refusal !== undefined) {
        outcomes.push({
          status: step.refusal.skipped === true ? "skipped" : "refused",
          step: identity(step),
          diagnostics: [],
          // the refusal's own hint says what to do about it
          error: outcomeError(
            "refused",
            step.refusal.message,
            step.refusal.code,
            undefined,
            step.refusal,
          ),
        });
        index += 1;
        continue;
      }
      // an interrupt is heard between steps, never inside one
      if (!stopped && options.signal !== undefined) {
        await new Promise((resolve) => setImmediate(resolve));
        stopped = options.signal.aborted;
      }
      if (stopped) {
        outcomes.push({ status: "unattempted", step: identity(step), diagnostics: [] });
        index += 1;
        continue;
      }
      const run = batchRun(plan.steps, index);
      for (const [offset, { ref }] of run.entries())
        options.progress?.({
          phase: "apply",
          ref,
          index: index + offset,
          count: plan.steps.length,
        });
      const ran = run.length > 1 ? runBatch(applying, run) : [runStep(applying, step)];
      outcomes.push(...ran);
      if (ran.some((outcome) => outcome.status !== "committed" || outcome.error !== undefined))
        stopped = true;
      index += ran.length;
    }
    const committed = outcomes.filter((outcome) => outcome.status === "committed");
    const refresh = await runRefresh(options, committed.length);
    const final =
      refresh.status === "refreshed"
        ? withPostRefreshVerification(applying, plan, outcomes)
        : outcomes;
    const count = (status: StepOutcome["status"]) =>
      final.filter((outcome) => outcome.status === status).length;
    return {
      planId: plan.id,
      outcomes: final,
      committed: count("committed"),
      skipped: count("skipped"),
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
  found?: { readonly hint?: string | undefined; readonly path?: string | undefined },
): NonNullable<StepOutcome["error"]> {
  const caused = cause !== undefined && cause !== code;
  const details = { ...(caused ? { cause } : {}), ...(changed === undefined ? {} : { changed }) };
  return {
    ...createDiagnostic("error", code, message, {
      path: found?.path,
      // a writer's own refusal says best what to do about it
      hint: caused ? found?.hint : undefined,
      details: Object.keys(details).length === 0 ? undefined : details,
    }),
    code,
  };
}

function runStep(applying: Applying, step: PlanStep): StepOutcome {
  const { environment, cache } = applying;
  const [, peer] = step.expected;
  let result: WriteResult;
  try {
    const write = () => writer(applying, step);
    result = peer === undefined ? write() : withPeerReviewed({ environment, cache }, peer, write);
  } catch (error) {
    if (!isSkillshelfError(error)) throw error;
    return failedOutcome(step, error);
  }
  return withVerification(
    committedOutcome(step, result),
    verifyStep(environment, step, "pre-refresh", cache),
  );
}

/**
 * The longest run of steps from `start` that can commit together: consecutive installs and
 * updates, removals, enables, disables or rollbacks (`batchOf`), into one scope, none refused, none
 * reviewed against a peer scope's copy.
 */
function batchRun(steps: readonly PlanStep[], start: number): PlanStep[] {
  const first = steps[start] as PlanStep;
  const batch = batchOf(first.operation);
  const run: PlanStep[] = [];
  for (const step of steps.slice(start)) {
    if (batchOf(step.operation) !== batch) break;
    if (step.refusal !== undefined || step.expected[1] !== undefined) break;
    if (step.scope !== first.scope) break;
    run.push(step);
  }
  return run.length === 0 ? [first] : run;
}

/** The batch a step commits in: an install (or update) of a staged tree, or its copy operation. */
function batchOf(operation: Operation): CopyOperation | "install" {
  return isCopyOperation(operation) ? operation : "install";
}

/** Commit a run of steps of one batch with its one store writer (copy operations: their table's). */
function writeBatch(applying: Applying, steps: readonly PlanStep[]): WriteBatch {
  const batch = batchOf((steps[0] as PlanStep).operation);
  return batch === "install"
    ? installPackages(steps.map((step) => installInput(applying, step, step.expected[0])))
    : writeCopies(
        batch,
        steps.map((step) => copyInput(applying, step)),
      );
}

/** A writer's input naming one copy and the facts the plan reviewed of it. */
function copyInput(applying: Applying, step: PlanStep) {
  return {
    ...writerTarget(applying, step),
    id: step.id,
    reviewed: reviewedFacts(applying, step, step.expected[0]),
  };
}

/**
 * Commit a run of steps with one store write (`writeBatch`): the steps before the first that
 * fails commit together, that one fails, the rest are unattempted; the committed ones are read
 * back together.
 */
function runBatch(applying: Applying, steps: readonly PlanStep[]): StepOutcome[] {
  const { environment, cache } = applying;
  const batch = writeBatch(applying, steps);
  const committed = steps.slice(0, batch.results.length);
  const verifications = verifySteps(environment, committed, "pre-refresh", cache);
  return steps.map((step, index) => {
    const result = batch.results[index];
    if (result !== undefined)
      return withVerification(committedOutcome(step, result), verifications[index]);
    if (index === batch.failure?.index) return failedOutcome(step, batch.failure.error);
    return { status: "unattempted", step: identity(step), diagnostics: [] };
  });
}

function committedOutcome(step: PlanStep, result: WriteResult): StepOutcome {
  return {
    status: "committed",
    step: identity(step),
    ...(result.packageBackup === undefined
      ? {}
      : { recovery: { packageBackup: result.packageBackup } }),
    diagnostics: result.diagnostics,
  };
}

/** The outcome error a writer's refusal is reported as; any other is `writer`. */
const OUTCOME_OF: { readonly [C in Code]?: OutcomeErrorCode } = {
  stale_plan: "stale_plan",
  locked: "locked",
  lock_lost: "locked",
  dependents: "refused",
};

function failedOutcome(step: PlanStep, error: SkillshelfError): StepOutcome {
  const code = OUTCOME_OF[error.code] ?? "writer";
  return {
    status: "failed",
    step: identity(step),
    diagnostics: [],
    error: outcomeError(code, error.message, error.code, detailsOf(error, "stale_plan"), error),
  };
}

/** Read every committed step back again once the host has refreshed. */
function withPostRefreshVerification(
  applying: Applying,
  plan: LifecyclePlan,
  outcomes: readonly StepOutcome[],
): StepOutcome[] {
  const committed = plan.steps.filter((_, index) => outcomes[index]?.status === "committed");
  const verifications = verifySteps(
    applying.environment,
    committed,
    "post-refresh",
    applying.cache,
  );
  let next = 0;
  return outcomes.map((outcome) =>
    outcome.status === "committed" ? withVerification(outcome, verifications[next++]) : outcome,
  );
}

function installInput(
  applying: Applying,
  step: PlanStep,
  own: ReviewedFact | undefined,
): InstallPackageInput {
  const source = step.source;
  if (source === undefined) throw new Error(`lifecycle: ${step.operation} step without a source`);
  const target = writerTarget(applying, step);
  return {
    ...target,
    // the plan's staging is released after the apply: the writer may move it in (and finds the
    // manifest the plan read from it in the cache)
    staged: { dir: source.dir, digest: source.digest, disposable: true },
    origin: source.origin,
    reviewed: own?.facts ?? observeCopyFacts({ ...target, id: step.id }),
    expected: { id: step.id, kind: step.kind, version: step.version, digest: source.digest },
    keepPrevious: keepsPrevious(step.operation),
    enabled: step.enabled,
    // the verdict the plan reviewed, as its lock entry shows it
    audit: step.lock.after?.audit,
    signer: step.lock.after?.signer,
    // every committed step is read back by `verifySteps`
    readBack: false,
    ...(step.links === undefined
      ? {}
      : {
          links: step.links.map(({ agent, target, copy, bare }) => ({
            agent,
            kind: "skill" as const,
            target,
            name: basename(target),
            package: step.id,
            copy,
            bare,
          })),
        }),
  };
}

function writerTarget(applying: Applying, step: PlanStep) {
  const { environment, cache, fault } = applying;
  return {
    environment,
    scope: step.scope,
    cache,
    ...(fault === undefined ? {} : { [FAULT_POINT]: fault }),
  };
}

/** The copy's facts the plan reviewed, or as they are now when it reviewed none. */
function reviewedFacts(applying: Applying, step: PlanStep, own: ReviewedFact | undefined) {
  return own?.facts ?? observeCopyFacts({ ...writerTarget(applying, step), id: step.id });
}

/** A step committed alone (under its peer scope's lock, when it has one): a batch of one. */
function writer(applying: Applying, step: PlanStep): WriteResult {
  const { results, failure } = writeBatch(applying, [step]);
  if (failure !== undefined) throw failure.error;
  return results[0] as WriteResult;
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
