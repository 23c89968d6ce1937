import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { type CodeParsers, createCodeParsers } from "@skillshelf/audit";
import {
  createDiagnostic,
  type Diagnostic,
  type Environment,
  SkillshelfError,
} from "@skillshelf/core";
import {
  type ApplyResult,
  applyLifecycle,
  createSourceFetches,
  installedFrom,
  isCopyOperation,
  type LifecyclePlan,
  type LifecycleProgress,
  type LinkApplyResult,
  linksBehindLock,
  type Operation,
  planLifecycle,
  releasePlan,
  restoreFromLock,
  restoreLinks,
  type SourceFetches,
} from "@skillshelf/lifecycle";
import { parseSourceSpec, scopeSourceSettings, sourceAccess } from "@skillshelf/sources";
import {
  createScopeCache,
  defaultScope,
  type PackageScope,
  readScopeState,
  type ScopeCache,
} from "@skillshelf/store";
import { recoverScope } from "@skillshelf/store/writers";
import { choose, confirm, withProgress } from "../_interact.js";
import { linkOutcomeText, outcomeText, planText } from "../_plan-text.js";
import { diagnosticsText } from "../_summary-text.js";
import type { CommandInput } from "../command.js";
import { type CommandContext, publicDiagnostic } from "../context.js";
import { formatDiagnostic, painter, safeLine } from "../format.js";
import type { CliIo } from "../io.js";
import { UsageError } from "../usage-error.js";
import { agentsOption } from "./_agents.js";
import { approvedRules } from "./_approve.js";
import { mcpCommandsAllowed } from "./_mcp-commands.js";
import { chosenScope } from "./_scope.js";

/** A command that changes the library, each through one reviewed plan. */
export type ChangeCommand = Operation | "import";

/** The options the change commands read: each has some of them (`skill` is install's alone). */
export interface ChangeValues {
  readonly json: boolean;
  readonly user: boolean;
  readonly project: boolean;
  readonly yes: boolean;
  readonly "dry-run": boolean;
  readonly force?: boolean;
  readonly frozen?: boolean;
  readonly check?: boolean;
  readonly ref?: string | undefined;
  readonly skill?: readonly string[];
  readonly plugin?: readonly string[];
  readonly agent?: readonly string[];
  readonly "all-agents"?: boolean;
  readonly "all-or-nothing"?: boolean;
  readonly "full-depth"?: boolean;
  readonly verbose?: boolean;
  readonly "with-requirements"?: boolean;
  readonly approve?: readonly string[];
  readonly from?: string | undefined;
  readonly "allow-mcp-command"?: boolean;
}

/**
 * Plan a change, print the plan, confirm it (a question on a terminal, `--yes` off one), apply
 * it and print what happened. `--dry-run` stops after the plan. Exit 0 when every step
 * committed and read back, 1 otherwise (a refused plan, a declined or unconfirmed change, a
 * failed step). `--json` prints one versioned result and never asks.
 */
export async function runChange(
  input: CommandInput<ChangeValues>,
  command: ChangeCommand,
): Promise<number> {
  const namesCopiesOnly = isCopyOperation(command);
  if (namesCopiesOnly && input.positionals.length === 0 && input.values.from === undefined)
    throw new UsageError("usage_missing_argument", `${command} needs <id…> or --from SOURCE`);
  if (command === "update" && input.values.check === true) {
    const { runUpdateCheck } = await import("./update-check.js");
    return runUpdateCheck(input);
  }
  // a collection fetched for the picker's question is fetched once, and removed at the end
  const fetches = createSourceFetches();
  try {
    return await changeOnce(input, command, fetches);
  } finally {
    fetches.release();
  }
}

async function changeOnce(
  input: CommandInput<ChangeValues>,
  command: ChangeCommand,
  fetches: SourceFetches,
): Promise<number> {
  const { io } = input;
  const context = input.context();
  const json = input.values.json;
  const namesCopies = command !== "install" && command !== "import" && input.positionals.length > 0;
  const scope = chosenScope(input, context.environment, namesCopies);
  // one process making many changes: each state and lock file is parsed once, not per step
  // one process making many plans: each grammar the audit reads code with is loaded once
  const planning = {
    context,
    scope,
    cache: createScopeCache(),
    fetches,
    codeParsers: createCodeParsers(),
  };
  // Ctrl-C while sources are fetched stops the fetch and removes what was staged
  const interrupted = new AbortController();
  const makeOne = (choices: PlanChoices) =>
    untilInterrupted(io, interrupted, () =>
      withProgress(io, (progress) =>
        makePlan(input, command, { ...planning, progress, signal: interrupted.signal }, choices),
      ),
    );
  let choices: PlanChoices = {
    skills: (input.values.skill ?? []).flatMap((names) => names.split(",")),
    approve: approvedRules(input.values.approve ?? []),
  };
  const first = await makeOne(choices);
  if (interrupted.signal.aborted) return stopped(io, first);
  const asking = !json && !input.values.yes;
  // a question only for a person who can answer and did not say --yes
  const picked = asking ? await pickFromCollection(io, first) : undefined;
  let plan = first;
  if (picked !== undefined) {
    releasePlan(plan);
    choices = { ...choices, skills: picked };
    plan = await makeOne(choices);
    if (interrupted.signal.aborted) return stopped(io, plan);
  }
  const shownScope = scope ?? plan.steps[0]?.scope ?? defaultScope(context.environment);
  const approving = asking
    ? await approveFindings(io, plan, () =>
        io.stdout(
          planText(plan, shownScope, context.style, painter(io.color), input.values.verbose),
        ),
      )
    : [];
  if (approving.length > 0) {
    releasePlan(plan);
    choices = { ...choices, approve: [...choices.approve, ...approving] };
    plan = await makeOne(choices);
    if (interrupted.signal.aborted) return stopped(io, plan);
  }
  const report = reporter(input, context, plan, shownScope);
  if (!plan.applicable || plan.steps.length === 0 || input.values["dry-run"]) {
    releasePlan(plan);
    const restoring = command === "install" && input.positionals.length === 0;
    if (!restoring || !plan.applicable || input.values["dry-run"]) return report(undefined, []);
    return restoreOnlyLinks(input, context, shownScope, report, planning.cache);
  }
  const confirmation = await confirmChange(input, plan.steps.length, () =>
    io.stdout(planText(plan, shownScope, context.style, painter(io.color))),
  );
  if (confirmation.refused !== undefined) {
    releasePlan(plan);
    return report(undefined, [confirmation.refused], confirmation.asked);
  }
  const applied = await apply(plan, io, planning.cache);
  const { result } = applied;
  if (applied.stopped) {
    report(result, [], confirmation.asked);
    const left = result.outcomes.filter((outcome) => outcome.status === "unattempted").length;
    io.stderr(
      `skillshelf: interrupted: ${result.committed} committed and kept, ${left} not attempted; nothing is half written (run the command again for the rest)\n`,
    );
    return 130;
  }
  const links = linksAfterRestore(
    input,
    command,
    { ...context, scope: shownScope },
    result,
    planning.cache,
  );
  return report(result, [], confirmation.asked, links);
}

/**
 * `install` with nothing named when every package already matches the lock: the links that
 * differ from it are the whole change, confirmed like any other.
 */
async function restoreOnlyLinks(
  input: CommandInput<ChangeValues>,
  context: CommandContext,
  scope: PackageScope,
  report: ReturnType<typeof reporter>,
  cache: ScopeCache,
): Promise<number> {
  const { environment } = context;
  // no package step runs a writer here: settle what an interrupted change left first
  const settled = recoverScope({ environment, scope, cache });
  const behind = linksBehindLock(environment, scope, cache);
  if (behind.length === 0) return report(undefined, [], false, undefined, settled);
  const showLinks = () =>
    input.io.stdout(
      `Links in the ${scope} scope that differ from its lock:\n${behind.map((key) => `  ${safeLine(key)}`).join("\n")}\n`,
    );
  const confirmation = await confirmChange(input, behind.length, showLinks);
  // the links are this change's plan: shown in its place, never "nothing to change"
  if (!confirmation.asked && !input.values.json) showLinks();
  if (confirmation.refused !== undefined)
    return report(undefined, [confirmation.refused], true, undefined, settled);
  const links = restoreLinks(environment, scope, cache);
  return report(undefined, [], true, links, settled);
}

/**
 * The links a restore (`install` with nothing named) makes once every step has committed: the
 * lock's. (`install --agent` makes its links in the same step as each install.)
 */
function linksAfterRestore(
  input: CommandInput<ChangeValues>,
  command: ChangeCommand,
  target: { readonly environment: Environment; readonly scope: PackageScope },
  result: ApplyResult,
  cache: ScopeCache,
): LinkApplyResult | undefined {
  if (command !== "install" || input.positionals.length > 0) return undefined;
  const committed = result.outcomes.every(
    (outcome) => outcome.status === "committed" && outcome.error === undefined,
  );
  return committed ? restoreLinks(target.environment, target.scope, cache) : undefined;
}

/**
 * Ask before a change of `count` steps: with `--yes` it goes ahead; on a terminal (and not
 * `--json`) the plan is shown (`showPlan`) and the person asked, default no; otherwise it is not
 * confirmed. `refused` says why not; `asked` whether the plan was shown for the question.
 */
export async function confirmChange(
  input: CommandInput<ChangeValues>,
  count: number,
  showPlan: () => void,
): Promise<{ readonly asked: boolean; readonly refused?: Diagnostic | undefined }> {
  if (input.values.yes) return { asked: false };
  const asked = !input.values.json && input.io.interactive;
  if (asked) showPlan();
  const question = count === 1 ? "Apply this change?" : `Apply these ${count} changes?`;
  const accepted = asked && (await confirm(input.io, question));
  return accepted ? { asked } : { asked, refused: notConfirmed(asked) };
}

// --- internal ---

/** Run `work`, aborting `controller` on Ctrl-C or SIGTERM while it runs (see `CliIo.onInterrupt`). */
async function untilInterrupted<T>(
  io: CliIo,
  controller: AbortController,
  work: () => Promise<T>,
): Promise<T> {
  const stop = io.onInterrupt?.(() => controller.abort()) ?? (() => {});
  try {
    return await work();
  } finally {
    stop();
  }
}

/** A plan stopped by Ctrl-C: its staging released, said so, exit 130 as a shell expects. */
function stopped(io: CliIo, plan: LifecyclePlan): number {
  releasePlan(plan);
  io.stderr("skillshelf: interrupted; nothing was changed, and what was fetched is removed\n");
  return 130;
}

/**
 * Apply `plan`; a first Ctrl-C stops it before its next step (a step being written finishes), a
 * second ends the process (the next command settles what it left).
 */
async function apply(
  plan: LifecyclePlan,
  io: CliIo,
  cache: ScopeCache,
): Promise<{ result: ApplyResult; stopped: boolean }> {
  const controller = new AbortController();
  const stop = io.onInterrupt?.(() => {
    stop?.();
    controller.abort();
    io.stderr("skillshelf: stopping after the step being written (Ctrl-C again ends it now)\n");
  });
  try {
    const result = await withProgress(io, (progress) =>
      applyLifecycle(plan, { cache, progress, signal: controller.signal }),
    );
    const stopped =
      controller.signal.aborted && result.outcomes.some((one) => one.status === "unattempted");
    return { result, stopped };
  } finally {
    stop?.();
  }
}

/** The plan a command asks for; staged sources are the plan's to release. */
async function makePlan(
  input: CommandInput<ChangeValues>,
  command: ChangeCommand,
  planning: {
    readonly context: CommandContext;
    readonly scope: PackageScope | undefined;
    readonly progress: (event: LifecycleProgress) => void;
    readonly cache: ScopeCache;
    readonly fetches: SourceFetches;
    readonly signal: AbortSignal;
    readonly codeParsers: CodeParsers;
  },
  choices: PlanChoices,
): Promise<LifecyclePlan> {
  const { context, scope, progress, cache, fetches, signal, codeParsers } = planning;
  const { environment } = context;
  const targets = input.positionals;
  const { skills } = choices;
  const audit = { approve: choices.approve };
  const stage = {
    signal,
    env: input.io.env,
    ...sourceAccess(environment),
    ...scopeSourceSettings(environment, scope ?? defaultScope(environment)),
    runsCommand: mcpCommandsAllowed(
      environment,
      [...targets, ...(input.values.from === undefined ? [] : [input.values.from])],
      input.values["allow-mcp-command"] === true,
    ),
  };
  const common = {
    environment,
    scope,
    progress,
    cache,
    fetches,
    audit,
    force: input.values.force,
    stage,
    codeParsers,
  };
  if (command === "install" && targets.length === 0)
    return restoreFromLock({
      environment,
      scope: scope ?? defaultScope(environment),
      frozen: input.values.frozen,
      progress,
      cache,
      audit,
      stage,
      codeParsers,
    });
  if (command === "install" || command === "import") {
    if (command === "import") assertClaudePlugin(environment, targets[0] as string);
    const agents = agentsOption(input, command);
    return planLifecycle({
      ...common,
      operation: "install",
      targets,
      withRequirements: input.values["with-requirements"],
      frozen: input.values.frozen,
      allOrNothing: input.values["all-or-nothing"],
      plugins: (input.values.plugin ?? [])
        .flatMap((value) => value.split(","))
        .filter((name) => name !== ""),
      skills: skills.filter((name) => name !== ""),
      fullDepth: input.values["full-depth"],
      ...(agents === undefined ? {} : { links: { agents } }),
    });
  }
  return planLifecycle({
    ...common,
    operation: command,
    targets:
      input.values.from !== undefined
        ? [
            ...targets,
            ...idsFrom(environment, scope ?? defaultScope(environment), input.values.from, cache),
          ]
        : command === "update" && targets.length === 0
          ? installedIds(environment, scope ?? defaultScope(environment), cache)
          : targets,
    ref: input.values.ref,
  });
}

/** What a person chose that a plan is made again for: skills from a collection, audit rules approved. */
interface PlanChoices {
  readonly skills: readonly string[];
  readonly approve: readonly string[];
}

/**
 * On a terminal, steps refused by the audit become a question: the plan with its findings is
 * shown (`showPlan`), then whether to approve the rules refused. The rules approved, or none.
 */
async function approveFindings(
  io: CliIo,
  plan: LifecyclePlan,
  showPlan: () => void,
): Promise<string[]> {
  const refused = plan.steps.filter((step) => step.refusal?.code === "audit_refused");
  // only a plan the audit alone stops, or whose audited steps it alone leaves out
  const others = plan.steps.some(
    (step) =>
      step.refusal !== undefined &&
      step.refusal.code !== "audit_refused" &&
      step.refusal.alone !== true,
  );
  if (refused.length === 0 || others || !io.interactive) return [];
  const rules = [
    ...new Set(refused.flatMap((step) => (step.refusal?.details?.rules ?? []) as string[])),
  ].sort();
  showPlan();
  const question = `Approve ${rules.map(safeLine).join(", ")} for ${refused.map((step) => safeLine(step.ref)).join(", ")}, for exactly these files?`;
  return (await confirm(io, question)) ? rules : [];
}

/**
 * On a terminal, a plan refused only because a collection offers several skills becomes a
 * question: the skills picked, or `undefined` to keep the refusal (off a terminal, or cancelled).
 */
async function pickFromCollection(io: CliIo, plan: LifecyclePlan): Promise<string[] | undefined> {
  const [only] = plan.steps;
  if (plan.steps.length !== 1 || only?.refusal?.code !== "collection_choice_required") return;
  const offered = (only.refusal.details?.skills ?? []) as {
    name: string;
    description: string;
    path: string;
  }[];
  // a name several skills have is picked by its path
  const shared = (name: string) => offered.filter((skill) => skill.name === name).length > 1;
  return choose(
    io,
    `${safeLine(only.ref)} offers ${offered.length} skills; which should be installed?`,
    offered.map((skill) => ({
      value: shared(skill.name) ? skill.path : skill.name,
      hint: safeLine(skill.description).slice(0, 80),
    })),
  );
}

/** Print the plan (unless it was shown for the question) and the outcomes; the exit status. */
function reporter(
  input: CommandInput<ChangeValues>,
  context: CommandContext,
  plan: LifecyclePlan,
  scope: PackageScope,
): (
  result: ApplyResult | undefined,
  extra: Diagnostic[],
  planShown?: boolean,
  links?: LinkApplyResult,
  settled?: readonly Diagnostic[],
) => number {
  const { io } = input;
  return (result, extra, planShown = false, links = undefined, settled = []) => {
    const diagnostics = [
      ...settled,
      ...plan.diagnostics,
      ...(result?.outcomes.flatMap((outcome) => outcome.diagnostics) ?? []),
      ...linkDiagnostics(links),
      ...extra,
    ];
    const ok =
      extra.length === 0 &&
      plan.applicable &&
      (links === undefined || links.status === "committed" || links.status === "unchanged") &&
      // what was never a skill is skipped, not failed: all asked for is there
      (result === undefined
        ? plan.steps.length === 0 ||
          (input.values["dry-run"] &&
            plan.steps.every((step) => step.refusal === undefined || step.refusal.skipped))
        : result.outcomes.every(
            (outcome) =>
              outcome.status === "skipped" ||
              (outcome.status === "committed" && outcome.error === undefined),
          ));
    if (input.values.json) {
      io.stdout(
        `${JSON.stringify(
          {
            version: 1,
            scope,
            project: context.environment.project,
            plan,
            outcomes: (result?.outcomes ?? []).map((outcome) => ({
              id: outcome.step.id,
              operation: outcome.step.operation,
              status: outcome.status,
              ...(outcome.recovery === undefined ? {} : { recovery: outcome.recovery }),
              ...(outcome.error === undefined ? {} : { error: outcome.error }),
              ...(outcome.verification === undefined ? {} : { verification: outcome.verification }),
            })),
            ...(result === undefined ? {} : { refresh: result.refresh }),
            ...(links === undefined
              ? {}
              : { links: { status: links.status, outcomes: links.result?.links ?? [] } }),
            diagnostics: diagnostics.map(publicDiagnostic),
          },
          null,
          2,
        )}\n`,
      );
      return ok ? 0 : 1;
    }
    const paint = painter(io.color);
    const { verbose } = input.values;
    if (!planShown) io.stdout(planText(plan, scope, context.style, paint, verbose));
    if (result !== undefined) io.stdout(outcomeText(result, context.style, paint, verbose));
    if (links?.result !== undefined)
      io.stdout(
        linkOutcomeText(
          links.result.links,
          plan.steps.flatMap((step) => step.links ?? []),
          paint,
        ),
      );
    io.stderr(
      diagnosticsText(
        diagnostics,
        (diagnostic) => formatDiagnostic(diagnostic, context.style, paint),
        paint,
        verbose,
      ),
    );
    return ok ? 0 : 1;
  };
}

function notConfirmed(asked: boolean): Diagnostic {
  return asked
    ? createDiagnostic("warning", "change_declined", "the change was not applied")
    : createDiagnostic(
        "error",
        "confirmation_required",
        "not applied: a change needs --yes when no one can answer at a terminal",
      );
}

/** The ids recorded in a scope's state (its copies are read by the plan, not here). */
function installedIds(environment: Environment, scope: PackageScope, cache: ScopeCache): string[] {
  const state = readScopeState(environment, scope, cache);
  return state.ok ? Object.keys(state.value.state.installed) : [];
}

/** `--from SOURCE`: every id installed from it in the scope (a usage error when none is). */
function idsFrom(
  environment: Environment,
  scope: PackageScope,
  from: string,
  cache: ScopeCache,
): string[] {
  // spelled as `install` takes it: `/path/repo#main` is the git repository there
  const parsed = parseSourceSpec(from, environment.cwd);
  if (!parsed.ok) throw new UsageError("usage_invalid_value", `--from ${from}: ${parsed.problem}`);
  const ids = installedFrom(environment, scope, parsed.source, cache);
  if (ids.length === 0)
    throw new UsageError(
      "usage_invalid_value",
      `--from ${from}: no package in the ${scope} scope was installed from it`,
    );
  return ids;
}

function assertClaudePlugin(environment: Environment, path: string): void {
  const dir = resolve(environment.cwd, path);
  if (!existsSync(join(dir, ".claude-plugin", "plugin.json")))
    throw new SkillshelfError(
      "import_not_claude_plugin",
      `${path} is not a Claude Code plugin: it has no .claude-plugin/plugin.json`,
      { path: dir },
    );
}

/** A link write's findings, and its error when it failed or was refused. */
export function linkDiagnostics(links: LinkApplyResult | undefined): Diagnostic[] {
  if (links === undefined) return [];
  return [
    ...(links.result?.diagnostics ?? []),
    ...(links.error === undefined ? [] : [links.error]),
  ];
}
