import { createCodeParsers } from "@skillshelf/audit";
import {
  createDiagnostic,
  type Diagnostic,
  detailsOf,
  type Environment,
  type OfferedSkill,
  type PackageScope,
} from "@skillshelf/core";
import { createScopeCache, defaultScope, type ScopeCache } from "@skillshelf/store";
import { recoverScope } from "@skillshelf/store/writers";
import { changeStageOptions, type PlanChoices, sessionPlan } from "./_session-plan.js";
import { createSourceFetches } from "./_staging.js";
import type { SwitchWrite } from "./agent-switches.js";
import { applyLifecycle } from "./apply.js";
import type { LinkApplyResult } from "./link.js";
import { recordScopeOrg, refreshExpiredOrg, teamSources } from "./org.js";
import { releasePlan } from "./plan.js";
import { settleOptional } from "./profiles.js";
import { linksBehindLock, restoreLinks } from "./restore-links.js";
import type { ApplyResult, LifecyclePlan, LifecycleRequest, Operation } from "./types.js";

/** What a change session does: a plan operation, or `import` (an install of a Claude Code plugin folder). */
export type ChangeCommand = Operation | "import";

/**
 * One change, as a person asks for it (the CLI's command line, an MCP tool call, an IDE's
 * button). The fields it shares with `LifecycleRequest` mean what they mean there.
 */
export interface ChangeRequest
  extends Pick<
    LifecycleRequest,
    | "environment"
    | "skills"
    | "plugins"
    | "force"
    | "frozen"
    | "ref"
    | "withRequirements"
    | "allOrNothing"
    | "fullDepth"
    | "cache"
    | "codeParsers"
    | "progress"
    | "links"
  > {
  readonly command: ChangeCommand;
  /**
   * What the change is about (see `LifecycleRequest.targets`). `install` with none restores the
   * scope from its lock; `update` with none updates every package the scope holds.
   */
  readonly targets: readonly string[];
  /** The scope asked for; otherwise `changeScope` decides. */
  readonly scope?: PackageScope | undefined;
  /** Audit rules approved for what this change stages. */
  readonly approve?: readonly string[] | undefined;
  /** Plan, ask what a plan needs answered, and stop before confirming or applying anything. */
  readonly dryRun?: boolean | undefined;
  /**
   * Source texts the person typed besides the targets (the CLI's `--from`, expanded into targets
   * by `installedFrom`): an `mcp+stdio:` command they name may start, like a target's.
   */
  readonly typedSources?: readonly string[] | undefined;
  /** Start any `mcp+stdio:` command a source names, not only typed ones and the user's own lock's. */
  readonly allowMcpCommand?: boolean | undefined;
  /** `install` with no targets: restore the scope from this offline bundle, fetching nothing. */
  readonly fromBundle?: string | undefined;
  /**
   * `install`: also the sources of this team's set in the org joined (its `channel`, `stable`
   * by default); once every step committed, the scope records the org and the team
   * (`recordScopeOrg`), so `verify` reports drift from the set and a teammate's restore checks
   * the same org.
   */
  readonly team?: { readonly name: string; readonly channel?: string | undefined } | undefined;
  /**
   * Stops the change: while planning, what was fetched is released and nothing is changed
   * (`stopped: "planning"`); while applying, after the step being written (`stopped: "applying"`).
   */
  readonly signal?: AbortSignal | undefined;
}

/** A collection offers several skills and the request named none: which to install. */
export interface SkillChoice {
  readonly ref: string;
  readonly offered: readonly OfferedSkill[];
}

/** The audit alone refused some steps: approve these rules for exactly the files it read? */
export interface AuditApproval {
  readonly plan: LifecyclePlan;
  /** The scope the change is made in (`ChangeSession.scope`). */
  readonly scope: PackageScope;
  readonly rules: readonly string[];
  readonly refs: readonly string[];
}

/**
 * Apply this change: a plan's steps, or (a restore with every package as locked) the links that
 * differ from the lock; in `scope` (`ChangeSession.scope`).
 */
export type ChangeConfirmation = { readonly scope: PackageScope; readonly count: number } & (
  | { readonly plan: LifecyclePlan }
  | { readonly links: readonly string[] }
);

/**
 * The questions a change may ask the person making it. A question a host leaves out keeps what
 * the plan says (the refusal stands); `confirm` answers `undefined` when no one can answer.
 */
export interface ChangeQuestions {
  /** The skills picked (names, or paths for a name several share); `undefined` keeps the refusal. */
  readonly pick?: ((choice: SkillChoice) => Promise<readonly string[] | undefined>) | undefined;
  readonly approve?: ((approval: AuditApproval) => Promise<boolean>) | undefined;
  readonly confirm: (confirmation: ChangeConfirmation) => Promise<boolean | undefined>;
}

/** What a change session did, as data: the caller prints or returns it. */
export interface ChangeSession {
  /** The scope the change was made in (or would have been). */
  readonly scope: PackageScope;
  /** The last plan made (after the questions). */
  readonly plan: LifecyclePlan;
  readonly result?: ApplyResult | undefined;
  /** The links a restore made from the lock. */
  readonly links?: LinkApplyResult | undefined;
  /**
   * An install into a project: each agent's own switch set for the project's optional skills as
   * this contributor's profile chooses them (`settleOptional`).
   */
  readonly switches?: readonly SwitchWrite[] | undefined;
  /** A restore with every package as locked: the links that differed from the lock, the whole change. */
  readonly linksBehind?: readonly string[] | undefined;
  /**
   * What the session settled first: an org past its ttl fetched again (or not reached), and
   * what settling an interrupted change found before a restore of links only.
   */
  readonly settled: readonly Diagnostic[];
  /** Not applied: `change_declined` (answered no) or `confirmation_required` (no one could answer). */
  readonly declined?: Diagnostic | undefined;
  readonly stopped?: "planning" | "applying" | undefined;
  /**
   * Every step asked for committed and read back (or, for a dry run, would apply), and the links
   * are as the lock says: a command exits 0.
   */
  readonly ok: boolean;
  /** Every diagnostic of the session, in order: settling, the plan, the outcomes, the links, the decline. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * The scope a change is made in: the one asked for; else, for a change naming installed copies
 * (`namesCopies`), `undefined` (wherever each copy is: the plan names it); else `defaultScope`
 * (the project's inside a project, the user's elsewhere). Every host decides it here.
 */
export function changeScope(
  environment: Environment,
  asked: PackageScope | undefined,
  namesCopies: boolean,
): PackageScope | undefined {
  if (asked !== undefined) return asked;
  return namesCopies ? undefined : defaultScope(environment);
}

/**
 * Run one change the way every host runs it: plan; ask `questions.pick` when a collection offers
 * several skills and `questions.approve` when the audit alone refuses steps, planning again with
 * the answers; stop for a dry run or a plan that cannot apply; ask `questions.confirm`; apply;
 * make the lock's links after a restore. Returns what happened; never prints, and releases every
 * fetch it made.
 */
export async function changeSession(
  asked: ChangeRequest,
  questions: ChangeQuestions,
): Promise<ChangeSession> {
  const { environment } = asked;
  const stageFor = (scope: PackageScope) =>
    changeStageOptions(environment, scope, {
      texts: [...asked.targets, ...(asked.typedSources ?? [])],
      allowMcpCommand: asked.allowMcpCommand === true,
      signal: asked.signal,
    });
  // an org past its ttl is fetched again before anything reads its policy
  const refreshed = await refreshExpiredOrg(environment, () =>
    stageFor(asked.scope ?? defaultScope(environment)),
  );
  const request: ChangeRequest =
    asked.team === undefined
      ? asked
      : {
          ...asked,
          targets: [
            ...asked.targets,
            ...teamSources(environment, asked.team.name, asked.team.channel),
          ],
        };
  const namesCopies =
    request.command !== "install" && request.command !== "import" && request.targets.length > 0;
  const scope = changeScope(environment, request.scope, namesCopies);
  // `install` with nothing named restores the scope from its lock, its links last
  const restoring = request.command === "install" && request.targets.length === 0;
  const orDefault = scope ?? defaultScope(environment);
  const shared = {
    scope,
    orDefault,
    cache: request.cache ?? createScopeCache(),
    codeParsers: request.codeParsers ?? createCodeParsers(),
    // a collection fetched for the picker's question is fetched once
    fetches: createSourceFetches(),
    // one reading of credentials, proxies and limits for every plan of the session
    stage: stageFor(orDefault),
  };
  /** The scope a plan's change is made in: the one asked or decided, else its first step's. */
  const scopeOf = (plan: LifecyclePlan) => scope ?? plan.steps[0]?.scope ?? orDefault;
  try {
    const made = await planWithAnswers(request, questions, shared, scopeOf);
    const { plan } = made;
    const shownScope = scopeOf(plan);
    const ended = (rest: Partial<ChangeSession>) =>
      sessionOf(request, {
        scope: shownScope,
        plan,
        ...rest,
        settled: [...refreshed, ...(rest.settled ?? [])],
      });
    if (made.stopped) return ended({ stopped: "planning" });
    // what a project's optional skills are for this contributor, once its install is done
    const optional = async (settled: readonly Diagnostic[] = []) => {
      if (request.command !== "install" || shownScope !== "project") return {};
      const { writes, diagnostics } = await settleOptional(environment);
      return { switches: writes, settled: [...settled, ...diagnostics] };
    };
    if (!plan.applicable || plan.steps.length === 0 || request.dryRun === true) {
      releasePlan(plan);
      if (!restoring || !plan.applicable || request.dryRun === true) return ended({});
      const restored = await restoreOnlyLinks(environment, shownScope, shared.cache, questions);
      return ended({
        ...restored,
        ...(restored.declined === undefined ? await optional(restored.settled) : {}),
      });
    }
    const answer = await questions.confirm({
      plan,
      scope: shownScope,
      count: plan.steps.length,
    });
    if (answer !== true) {
      releasePlan(plan);
      return ended({ declined: notConfirmed(answer) });
    }
    const result = await applyLifecycle(plan, {
      cache: shared.cache,
      progress: request.progress,
      signal: request.signal,
    });
    const stopped =
      request.signal?.aborted === true &&
      result.outcomes.some((outcome) => outcome.status === "unattempted");
    if (stopped) return ended({ result, stopped: "applying" });
    const committed = result.outcomes.every(
      (outcome) => outcome.status === "committed" && outcome.error === undefined,
    );
    // a restore makes the lock's links once every step committed
    const links =
      restoring && committed ? restoreLinks(environment, shownScope, shared.cache) : undefined;
    if (committed && request.team !== undefined)
      recordScopeOrg(environment, shownScope, request.team);
    return ended({ result, links, ...(committed ? await optional() : {}) });
  } finally {
    shared.fetches.release();
  }
}

/** A link write's findings, and its error when it failed or was refused. */
export function linkDiagnostics(links: LinkApplyResult | undefined): Diagnostic[] {
  if (links === undefined) return [];
  return [
    ...(links.result?.diagnostics ?? []),
    ...(links.error === undefined ? [] : [links.error]),
  ];
}

// --- internal ---

type Shared = Parameters<typeof sessionPlan>[2];

/** The plan after the questions: a pick of skills, then approvals, each planned again. */
async function planWithAnswers(
  request: ChangeRequest,
  questions: ChangeQuestions,
  shared: Shared,
  scopeOf: (plan: LifecyclePlan) => PackageScope,
): Promise<{ readonly plan: LifecyclePlan; readonly stopped: boolean }> {
  let choices: PlanChoices = { skills: request.skills ?? [], approve: request.approve ?? [] };
  let plan = await sessionPlan(request, choices, shared);
  const again = async (next: PlanChoices) => {
    releasePlan(plan);
    choices = next;
    plan = await sessionPlan(request, choices, shared);
  };
  const aborted = () => request.signal?.aborted === true;
  if (aborted()) return { plan, stopped: true };
  const choice = skillChoice(plan);
  const picked =
    choice === undefined || questions.pick === undefined ? undefined : await questions.pick(choice);
  if (picked !== undefined) {
    await again({ ...choices, skills: picked });
    if (aborted()) return { plan, stopped: true };
  }
  const approval = auditApproval(plan, scopeOf(plan));
  if (approval !== undefined && (await questions.approve?.(approval)) === true) {
    await again({ ...choices, approve: [...choices.approve, ...approval.rules] });
    if (aborted()) return { plan, stopped: true };
  }
  return { plan, stopped: false };
}

/** A plan refused only because a collection offers several skills: the question it asks. */
function skillChoice(plan: LifecyclePlan): SkillChoice | undefined {
  const [only] = plan.steps;
  if (plan.steps.length !== 1 || only?.refusal?.code !== "collection_choice_required") return;
  return {
    ref: only.ref,
    offered: detailsOf(only.refusal, "collection_choice_required")?.skills ?? [],
  };
}

/** A plan the audit alone stops, or whose audited steps it alone leaves out: the rules to approve. */
function auditApproval(plan: LifecyclePlan, scope: PackageScope): AuditApproval | undefined {
  const refused = plan.steps.filter((step) => step.refusal?.code === "audit_refused");
  const others = plan.steps.some(
    (step) =>
      step.refusal !== undefined &&
      step.refusal.code !== "audit_refused" &&
      step.refusal.alone !== true,
  );
  if (refused.length === 0 || others) return undefined;
  const rules = [
    ...new Set(refused.flatMap((step) => detailsOf(step.refusal, "audit_refused")?.rules ?? [])),
  ].sort();
  return { plan, scope, rules, refs: refused.map((step) => step.ref) };
}

/**
 * `install` with nothing named when every package already matches the lock: the links that
 * differ from it are the whole change, confirmed like any other.
 */
async function restoreOnlyLinks(
  environment: Environment,
  scope: PackageScope,
  cache: ScopeCache,
  questions: ChangeQuestions,
): Promise<Partial<ChangeSession>> {
  // no package step runs a writer here: settle what an interrupted change left first
  const settled = recoverScope({ environment, scope, cache });
  const behind = linksBehindLock(environment, scope, cache);
  if (behind.length === 0) return { settled };
  const answer = await questions.confirm({ scope, links: behind, count: behind.length });
  if (answer !== true) return { settled, linksBehind: behind, declined: notConfirmed(answer) };
  return { settled, linksBehind: behind, links: restoreLinks(environment, scope, cache) };
}

/** The session's outcome, judged once for every host. */
function sessionOf(
  request: ChangeRequest,
  ended: Omit<ChangeSession, "ok" | "diagnostics">,
): ChangeSession {
  const { plan, result, links, declined, settled } = ended;
  const diagnostics = [
    ...settled,
    ...plan.diagnostics,
    ...(result?.outcomes.flatMap((outcome) => outcome.diagnostics) ?? []),
    ...linkDiagnostics(links),
    ...(declined === undefined ? [] : [declined]),
  ];
  const ok =
    declined === undefined &&
    ended.stopped === undefined &&
    plan.applicable &&
    (links === undefined || links.status === "committed" || links.status === "unchanged") &&
    // what was never a skill is skipped, not failed: all asked for is there
    (result === undefined
      ? plan.steps.length === 0 ||
        (request.dryRun === true &&
          plan.steps.every((step) => step.refusal === undefined || step.refusal.skipped))
      : result.outcomes.every(
          (outcome) =>
            outcome.status === "skipped" ||
            (outcome.status === "committed" && outcome.error === undefined),
        ));
  return { ...ended, ok, diagnostics };
}

/** Why a change was not applied: answered no (`change_declined`), or no one could answer (`confirmation_required`). */
export function notConfirmed(answer: false | undefined): Diagnostic {
  return answer === false
    ? createDiagnostic("warning", "change_declined", "the change was not applied")
    : createDiagnostic(
        "error",
        "confirmation_required",
        "not applied: a change needs confirming, and no one could answer",
      );
}
