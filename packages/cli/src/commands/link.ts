import type { Diagnostic } from "@skillshelf/core";
import {
  applyLinks,
  type LinkApplyResult,
  type LinkPlan,
  linkDiagnostics,
  notConfirmed,
  planLinks,
  planUnlinks,
} from "@skillshelf/lifecycle";
import { linkOutcomeText, linkPlanText } from "../_plan-text.js";
import type { CommandInput } from "../command.js";
import { type CommandContext, publicDiagnostic } from "../context.js";
import { formatDiagnostic, painter } from "../format.js";
import { agentsOption } from "./_agents.js";
import { chosenScope } from "./_scope.js";
import { type ChangeValues, confirmChange } from "./change.js";

/**
 * `link <name…> --agent a,b | --all-agents [--copy]` and `unlink <name…> [--agent a,b]`: plan
 * the links, print the plan, confirm it as every change is confirmed, apply it in one step and
 * print what happened. Exit 0 when applied (or nothing to do), 1 otherwise.
 */

export async function runLink(
  input: CommandInput<ChangeValues>,
  command: "link" | "unlink",
): Promise<number> {
  const context = input.context();
  const { environment } = context;
  const scope = chosenScope(input, environment, false) ?? "user";
  const agents = agentsOption(input, command);
  const names = [...input.positionals];
  const plan =
    command === "link"
      ? planLinks({ environment, scope, names, agents: agents ?? "all", copy: input.values.copy })
      : planUnlinks({ environment, scope, names, agents: agents === "all" ? undefined : agents });
  const pending = plan.steps.filter((step) => !step.inPlace).length;
  if (!plan.applicable || pending === 0 || input.values["dry-run"])
    return reportLinks(input, context, plan, undefined, []);
  const paint = painter(input.io.color);
  let shown = false;
  const answer = await confirmChange(input, pending, () => {
    shown = true;
    input.io.stdout(linkPlanText(plan, context.style, paint));
  });
  if (answer !== true)
    return reportLinks(input, context, plan, undefined, [notConfirmed(answer)], shown);
  return reportLinks(input, context, plan, applyLinks(plan), [], shown);
}

/**
 * What a link command did, printed: the plan (unless it was shown for the question), the
 * outcome and the diagnostics; or, under `--json`, one versioned result. The exit status.
 */
function reportLinks(
  input: CommandInput<{ readonly json: boolean }>,
  context: CommandContext,
  plan: LinkPlan,
  applied: LinkApplyResult | undefined,
  extra: readonly Diagnostic[],
  planShown = false,
): number {
  const { io } = input;
  const diagnostics = [...plan.diagnostics, ...linkDiagnostics(applied), ...extra];
  const ok =
    extra.length === 0 &&
    plan.applicable &&
    (applied === undefined || applied.status === "committed" || applied.status === "unchanged");
  if (input.values.json) {
    io.stdout(
      `${JSON.stringify(
        {
          version: 1,
          scope: plan.scope,
          project: plan.project,
          plan,
          outcomes: applied?.result?.links ?? [],
          diagnostics: diagnostics.map(publicDiagnostic),
        },
        null,
        2,
      )}\n`,
    );
    return ok ? 0 : 1;
  }
  const paint = painter(io.color);
  if (!planShown) io.stdout(linkPlanText(plan, context.style, paint));
  if (applied?.result !== undefined)
    io.stdout(linkOutcomeText(applied.result.links, plan.steps, paint));
  for (const diagnostic of diagnostics)
    io.stderr(formatDiagnostic(diagnostic, context.style, paint));
  return ok ? 0 : 1;
}
