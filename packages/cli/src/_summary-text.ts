// A long plan or outcome (a collection's hundreds of skills) as a summary: counts, names, and the
// refusals grouped by code with their hint once each.
import { basename } from "node:path";
import type { Diagnostic } from "@skillshelf/core";
import type { ApplyResult, PlanStep } from "@skillshelf/lifecycle";
import { type Paint, plural, safeLine } from "./format.js";

/** From how many steps a plan or an outcome is summed up rather than shown step by step. */
export const SUMMARY_AT = 12;

/** Whether a step is one of many alike that a summary may count rather than show. */
export function summable(step: PlanStep): boolean {
  if (step.refusal !== undefined) return step.refusal.alone === true;
  // an update's capability diff, a package hidden from models, a dependent broken: shown whole
  return (
    step.operation !== "update" &&
    step.model?.given !== false &&
    step.dependents.newlyBroken.length === 0
  );
}

/** The summary lines of `steps` (all `summable`): each operation's count and names, the audit, the refused by code. */
export function stepsSummary(steps: readonly PlanStep[], paint: Paint): string[] {
  const lines: string[] = [];
  const planned = steps.filter((step) => step.refusal === undefined);
  for (const [label, group] of groupBy(planned, (step) => `${step.operation} (${step.scope})`))
    lines.push(`  ${paint("bold", label.replace(" (", ` ${group.length} (`))}: ${names(group)}`);
  const audited = planned.flatMap((step) => (step.audit === undefined ? [] : [step.audit]));
  if (audited.length > 0) {
    const clean = audited.filter((audit) => audit.findings.length === 0).length;
    const rest = audited.length - clean;
    lines.push(
      `    audit: ${clean} clean${rest === 0 ? "" : `, ${rest} with findings under the threshold`}`,
    );
  }
  lines.push(
    ...refusedSummary(
      steps.filter((step) => step.refusal !== undefined),
      paint,
    ),
  );
  return lines;
}

/**
 * What applying did, summed up: the done counted by operation (one whose edited files were kept
 * is shown whole, as is every failure, by `line`); the refused and skipped were in the plan.
 */
export function outcomesSummary(
  result: ApplyResult,
  paint: Paint,
  line: (outcome: ApplyResult["outcomes"][number]) => string,
): string[] {
  const plain = result.outcomes.filter(
    (outcome) =>
      outcome.status === "committed" &&
      outcome.error === undefined &&
      outcome.recovery?.packageBackup === undefined,
  );
  const lines: string[] = [];
  for (const [operation, group] of groupBy(plain, (outcome) => outcome.step.operation))
    lines.push(
      `${paint("green", "done")}      ${operation} ${group.length}: ${names(group.map((outcome) => outcome.step))}`,
    );
  const summed = new Set(plain);
  for (const outcome of result.outcomes)
    if (!summed.has(outcome) && outcome.status !== "refused" && outcome.status !== "skipped")
      lines.push(line(outcome));
  return lines;
}

/**
 * The findings of a change as lines: each once, except a code met at least `GROUP_AT` times among
 * more than `SUMMARY_AT` findings (`already_installed` for each skill of a collection installed
 * again), which is one line naming the first few and its hint once (`verbose`: each whole).
 */
export function diagnosticsText(
  diagnostics: readonly Diagnostic[],
  one: (diagnostic: Diagnostic) => string,
  paint: Paint,
  verbose = false,
): string {
  if (verbose || diagnostics.length <= SUMMARY_AT) return diagnostics.map(one).join("");
  const groups = groupBy(diagnostics, (diagnostic) => `${diagnostic.severity} ${diagnostic.code}`);
  const lines: string[] = [];
  for (const [label, group] of groups) {
    if (group.length < GROUP_AT) {
      lines.push(...group.map(one));
      continue;
    }
    const [first] = group;
    const shown = group.map((diagnostic) =>
      diagnostic.path === undefined ? safeLine(diagnostic.message) : basename(diagnostic.path),
    );
    const hint =
      first?.severity === "info" || first?.hint === undefined
        ? ""
        : `  ${paint("dim", `hint: ${safeLine(first.hint)}`)}\n`;
    lines.push(`${label} ${group.length}: ${listed(shown)}\n${hint}`);
  }
  return lines.join("");
}

// --- internal ---

/** How many findings of one code are one line in a long change's output. */
const GROUP_AT = 4;

/** How many names a summary line shows before "and N more". */
const NAMES_SHOWN = 8;

/** The refused steps by code, each code's hint once; what was never a skill, said apart. */
function refusedSummary(refused: readonly PlanStep[], paint: Paint): string[] {
  const lines: string[] = [];
  const skipped = refused.filter((step) => step.refusal?.skipped === true);
  const real = refused.filter((step) => step.refusal?.skipped !== true);
  if (real.length > 0) {
    lines.push(`  ${paint("red", "refused")} ${real.length}:`);
    for (const [code, group] of groupBy(real, (step) => step.refusal?.code ?? "")) {
      lines.push(`    ${code} ${group.length}: ${names(group)}`);
      lines.push(`      hint: ${safeLine(group[0]?.refusal?.hint ?? "")}`);
    }
  }
  if (skipped.length > 0)
    lines.push(
      `  ${paint("dim", "skipped")} ${plural(skipped.length, "file that is no skill", "files that are no skills")}: ${[
        ...groupBy(skipped, (step) => step.refusal?.code ?? ""),
      ]
        .map(([code, group]) => `${code} (${names(group)})`)
        .join("; ")}`,
    );
  return lines;
}

function names(steps: readonly Pick<PlanStep, "ref">[]): string {
  return listed(steps.map((step) => safeLine(step.ref)));
}

/** The first `NAMES_SHOWN` of `texts`, then how many more. */
function listed(texts: readonly string[]): string {
  const more = texts.length - NAMES_SHOWN;
  return `${texts.slice(0, NAMES_SHOWN).join(", ")}${more > 0 ? `, … and ${more} more` : ""}`;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group === undefined) groups.set(key(item), [item]);
    else group.push(item);
  }
  return groups;
}
