import { resolve } from "node:path";
import type { PackageScope } from "@skillshelf/core";
import {
  type ChangeCommand,
  type ChangeConfirmation,
  type ChangeQuestions,
  type ChangeSession,
  changeScope,
  changeSession,
  installedFrom,
  isCopyOperation,
  type LifecyclePlan,
  type LifecycleProgress,
  type SkillChoice,
} from "@skillshelf/lifecycle";
import { parseSourceSpec } from "@skillshelf/sources";
import { choose, confirm, progressLine, progressText } from "../_interact.js";
import { linkOutcomeText, outcomeText, planText } from "../_plan-text.js";
import { diagnosticsText } from "../_summary-text.js";
import type { CommandInput } from "../command.js";
import { type CommandContext, publicDiagnostic } from "../context.js";
import { formatDiagnostic, painter, safeLine } from "../format.js";
import type { CliIo } from "../io.js";
import { UsageError } from "../usage-error.js";
import { agentsOption } from "./_agents.js";
import { approvedRules } from "./_approve.js";
import { scopeAsked } from "./_scope.js";
import { printWrites } from "./_switch-writes.js";

export type { ChangeCommand } from "@skillshelf/lifecycle";

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
  /** Links made as copies; `bare` ones without the package's manifest (`adopt`'s). */
  readonly copy?: boolean;
  readonly bare?: boolean;
  readonly "all-agents"?: boolean;
  readonly "all-or-nothing"?: boolean;
  readonly "full-depth"?: boolean;
  readonly verbose?: boolean;
  readonly "with-requirements"?: boolean;
  readonly approve?: readonly string[];
  readonly from?: string | undefined;
  readonly "allow-mcp-command"?: boolean;
  readonly "from-bundle"?: string | undefined;
  readonly team?: string | undefined;
  readonly channel?: string | undefined;
}

/**
 * Plan a change, print the plan, confirm it (a question on a terminal, `--yes` off one), apply
 * it and print what happened, through `changeSession`: this command asks its questions at the
 * terminal and prints. `--dry-run` stops after the plan. Exit 0 when every step committed and
 * read back, 1 otherwise (a refused plan, a declined or unconfirmed change, a failed step), 130
 * when interrupted. `--json` prints one versioned result and never asks.
 */
export async function runChange(
  input: CommandInput<ChangeValues>,
  command: ChangeCommand,
): Promise<number> {
  const { io, values } = input;
  const switching = command === "enable" || command === "disable" || command === "rollback";
  if (switching && (values.agent ?? []).length > 0) {
    const { runAgentSwitch } = await import("./_switch.js");
    return runAgentSwitch(input, command);
  }
  if (isCopyOperation(command) && input.positionals.length === 0 && values.from === undefined)
    throw new UsageError("usage_missing_argument", `${command} needs <id…> or --from SOURCE`);
  if (values.channel !== undefined && values.team === undefined)
    throw new UsageError("usage_invalid_value", "--channel picks a channel of --team NAME's set");
  if (values.team !== undefined && values["from-bundle"] !== undefined)
    throw new UsageError("usage_invalid_value", "--team and --from-bundle cannot be used together");
  const bundle = values["from-bundle"];
  if (bundle !== undefined && input.positionals.length > 0)
    throw new UsageError(
      "usage_invalid_value",
      "--from-bundle restores the scope from the bundle: name nothing else to install",
    );
  if (command === "update" && values.check === true) {
    const { runUpdateCheck } = await import("./update-check.js");
    return runUpdateCheck(input);
  }
  const context = input.context();
  const { environment } = context;
  const asked = scopeAsked(input);
  const targets =
    values.from === undefined
      ? input.positionals
      : [...input.positionals, ...idsFrom(context, asked, values.from)];
  const terminal = terminalQuestions(input, context);
  const interrupt = interruptible(io);
  try {
    const session = await changeSession(
      {
        command,
        environment,
        targets,
        scope: asked,
        skills: (values.skill ?? []).flatMap((names) => names.split(",")),
        plugins: (values.plugin ?? []).flatMap((value) => value.split(",")),
        approve: approvedRules(values.approve ?? []),
        links: linksTo(agentsOption(input, command), values),
        force: values.force,
        frozen: values.frozen,
        ref: values.ref,
        withRequirements: values["with-requirements"],
        allOrNothing: values["all-or-nothing"],
        fullDepth: values["full-depth"],
        dryRun: values["dry-run"],
        typedSources: values.from === undefined ? [] : [values.from],
        allowMcpCommand: values["allow-mcp-command"] === true,
        ...(bundle === undefined ? {} : { fromBundle: resolve(environment.cwd, bundle) }),
        ...(values.team === undefined
          ? {}
          : { team: { name: values.team, channel: values.channel } }),
        progress: terminal.progress,
        signal: interrupt.signal,
      },
      { ...terminal.questions, confirm: (change) => interrupt.applying(terminal.confirm(change)) },
    );
    return report(input, context, session, terminal.planShown());
  } finally {
    terminal.done();
    interrupt.stop();
  }
}

/**
 * Ask before a change of `count` steps: with `--yes` it goes ahead; on a terminal (and not
 * `--json`) the plan is shown (`showPlan`) and the person asked, default no; otherwise no one
 * can answer (`undefined`).
 */
export async function confirmChange(
  input: CommandInput<ChangeValues>,
  count: number,
  showPlan: () => void,
): Promise<boolean | undefined> {
  if (input.values.yes) return true;
  if (input.values.json || !input.io.interactive) return undefined;
  showPlan();
  const question = count === 1 ? "Apply this change?" : `Apply these ${count} changes?`;
  return confirm(input.io, question);
}

// --- internal ---

/**
 * The session's questions, asked at the terminal: a person who can answer and did not say
 * `--yes` is asked to pick skills and approve findings. The progress line is cleared before each
 * question; `planShown` says whether the change was printed for the confirming question.
 */
function terminalQuestions(input: CommandInput<ChangeValues>, context: CommandContext) {
  const { io, values } = input;
  const line = progressLine(io);
  let shown = false;
  const printPlan = (plan: LifecyclePlan, scope: PackageScope, verbose?: boolean) =>
    io.stdout(planText(plan, scope, context.style, painter(io.color), verbose));
  const asking = !values.json && !values.yes && io.interactive;
  const questions: Omit<ChangeQuestions, "confirm"> = asking
    ? {
        pick: (choice) => {
          line.done();
          return pickFromCollection(io, choice);
        },
        approve: ({ plan, scope, rules, refs }) => {
          line.done();
          printPlan(plan, scope, values.verbose);
          return confirm(
            io,
            `Approve ${rules.map(safeLine).join(", ")} for ${refs.map(safeLine).join(", ")}, for exactly these files?`,
          );
        },
      }
    : {};
  return {
    questions,
    progress: (event: LifecycleProgress) => line.update(progressText(event)),
    planShown: () => shown,
    done: () => line.done(),
    confirm: (change: ChangeConfirmation) => {
      line.done();
      return confirmChange(input, change.count, () => {
        shown = true;
        if ("plan" in change) printPlan(change.plan, change.scope);
        else io.stdout(linksText(change.scope, change.links));
      });
    },
  };
}

/**
 * Ctrl-C (or SIGTERM) during a change: while planning it stops the fetch and removes what was
 * staged; once the change is confirmed, the first stops it before its next step (a step being
 * written finishes) and a second ends the process (the next command settles what it left).
 */
function interruptible(io: CliIo) {
  const controller = new AbortController();
  let applying = false;
  const stop: () => void =
    io.onInterrupt?.(() => {
      if (applying) {
        stop();
        io.stderr("skillshelf: stopping after the step being written (Ctrl-C again ends it now)\n");
      }
      controller.abort();
    }) ?? (() => {});
  return {
    signal: controller.signal,
    stop,
    /** The confirming answer, noting that a yes starts applying. */
    applying: async (asked: Promise<boolean | undefined>) => {
      const answer = await asked;
      applying = answer === true;
      return answer;
    },
  };
}

function linksText(scope: PackageScope, links: readonly string[]): string {
  return `Links in the ${scope} scope that differ from its lock:\n${links.map((key) => `  ${safeLine(key)}`).join("\n")}\n`;
}

/**
 * A collection's skills to pick from at the terminal: the skills picked, or `undefined` to keep
 * the refusal (cancelled).
 */
function pickFromCollection(io: CliIo, choice: SkillChoice): Promise<string[] | undefined> {
  const { offered } = choice;
  // a name several skills have is picked by its path
  const shared = (name: string) => offered.filter((skill) => skill.name === name).length > 1;
  return choose(
    io,
    `${safeLine(choice.ref)} offers ${offered.length} skills; which should be installed?`,
    offered.map((skill) => ({
      value: shared(skill.name) ? skill.path : skill.name,
      hint: safeLine(skill.description).slice(0, 80),
    })),
  );
}

/** Print the session (the plan unless it was shown for the question, the outcomes); the exit status. */
function report(
  input: CommandInput<ChangeValues>,
  context: CommandContext,
  session: ChangeSession,
  planShown: boolean,
): number {
  const { io } = input;
  const { plan, result, links } = session;
  if (session.stopped === "planning") {
    io.stderr("skillshelf: interrupted; nothing was changed, and what was fetched is removed\n");
    return 130;
  }
  const status = session.ok ? 0 : 1;
  if (input.values.json) {
    io.stdout(`${JSON.stringify(jsonReport(context, session), null, 2)}\n`);
    return status;
  }
  const paint = painter(io.color);
  const { verbose } = input.values;
  if (session.linksBehind !== undefined) {
    if (!planShown) io.stdout(linksText(session.scope, session.linksBehind));
  } else if (!planShown) io.stdout(planText(plan, session.scope, context.style, paint, verbose));
  if (result !== undefined) io.stdout(outcomeText(result, context.style, paint, verbose));
  if (links?.result !== undefined)
    io.stdout(
      linkOutcomeText(
        links.result.links,
        plan.steps.flatMap((step) => step.links ?? []),
        paint,
      ),
    );
  const switched = (session.switches ?? []).filter((write) => write.changed);
  if (switched.length > 0) {
    io.stdout("the project's optional skills your profile does not name, off:\n");
    printWrites(io, context.style, switched);
  }
  io.stderr(
    diagnosticsText(
      session.diagnostics,
      (diagnostic) => formatDiagnostic(diagnostic, context.style, paint),
      paint,
      verbose,
    ),
  );
  if (session.stopped === "applying" && result !== undefined) {
    const left = result.outcomes.filter((outcome) => outcome.status === "unattempted").length;
    io.stderr(
      `skillshelf: interrupted: ${result.committed} committed and kept, ${left} not attempted; nothing is half written (run the command again for the rest)\n`,
    );
    return 130;
  }
  return status;
}

/** The versioned `--json` result of a change. */
function jsonReport(context: CommandContext, session: ChangeSession) {
  const { plan, result, links } = session;
  return {
    version: 1,
    scope: session.scope,
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
    ...(session.switches === undefined ? {} : { switches: session.switches }),
    diagnostics: session.diagnostics.map(publicDiagnostic),
  };
}

/** `--from SOURCE`: every id installed from it in the scope (a usage error when none is). */
function idsFrom(context: CommandContext, asked: PackageScope | undefined, from: string): string[] {
  const { environment } = context;
  const scope = changeScope(environment, asked, false) ?? "user";
  // spelled as `install` takes it: `/path/repo#main` is the git repository there
  const parsed = parseSourceSpec(from, environment.cwd);
  if (!parsed.ok) throw new UsageError("usage_invalid_value", `--from ${from}: ${parsed.problem}`);
  const ids = installedFrom(environment, scope, parsed.source);
  if (ids.length === 0)
    throw new UsageError(
      "usage_invalid_value",
      `--from ${from}: no package in the ${scope} scope was installed from it`,
    );
  return ids;
}

function linksTo(agents: readonly string[] | "all" | undefined, values: ChangeValues) {
  if (agents === undefined) return undefined;
  const { copy, bare } = values;
  return { agents, ...(copy === true ? { copy } : {}), ...(bare === true ? { bare } : {}) };
}
