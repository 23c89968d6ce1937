import type { PackageSource } from "@skillshelf/core";
import type {
  ApplyResult,
  CapabilityDiff,
  LifecyclePlan,
  LinkPlan,
  PlanStep,
  StepAudit,
} from "@skillshelf/lifecycle";
import { describeSource } from "@skillshelf/sources";
import type { LinkOutcome } from "@skillshelf/store/writers";
import { outcomesSummary, SUMMARY_AT, stepsSummary, summable } from "./_summary-text.js";
import {
  displayPath,
  displayText,
  type Paint,
  type PathStyle,
  plural,
  safeLine,
  shortHash,
} from "./format.js";

/**
 * The reviewed plan as people read it: the scope and project, then one block per step; a plan of
 * more than `SUMMARY_AT` steps shows the steps that need a look whole and sums up the rest
 * (`verbose`: every step whole).
 */
export function planText(
  plan: LifecyclePlan,
  scope: string,
  style: PathStyle,
  paint: Paint,
  verbose = false,
): string {
  const header = `Plan for the ${scope} scope (project ${displayPath(plan.project, style)}):`;
  if (plan.steps.length === 0) return `${header}\n  nothing to change\n`;
  const lines = [header];
  const summed = !verbose && plan.steps.length > SUMMARY_AT;
  for (const step of plan.steps)
    if (!summed || !summable(step)) lines.push(...stepLines(step, style, paint));
  if (summed)
    lines.push(
      ...stepsSummary(plan.steps.filter(summable), paint),
      "  (--verbose shows each step)",
    );
  return `${lines.join("\n")}\n`;
}

/** What applying did, one line per step (summed up past `SUMMARY_AT`, unless `verbose`), then the count by status. */
export function outcomeText(
  result: ApplyResult,
  style: PathStyle,
  paint: Paint,
  verbose = false,
): string {
  const { outcomes } = result;
  const line = (outcome: (typeof outcomes)[number]) => outcomeLine(outcome, style, paint);
  const summed = !verbose && outcomes.length > SUMMARY_AT;
  const lines = summed ? outcomesSummary(result, paint, line) : outcomes.map(line);
  // a long batch (a collection's skills) ends with its count, so the refused are not missed
  if (outcomes.length > 1) {
    const counts = new Map<string, number>();
    for (const outcome of outcomes) {
      const label = isDone(outcome) ? "done" : outcome.status;
      counts.set(label, (counts.get(label) ?? 0) + 1);
    }
    lines.push([...counts].map(([label, count]) => `${count} ${label}`).join(", "));
  }
  return `${lines.join("\n")}\n`;
}

// --- internal ---

const MAX_FINDINGS_SHOWN = 5;

type Outcome = ApplyResult["outcomes"][number];

function isDone(outcome: Outcome): boolean {
  return outcome.status === "committed" && outcome.error === undefined;
}

/** One step's outcome: done (and where edited files were kept), or why not and what next. */
function outcomeLine(outcome: Outcome, style: PathStyle, paint: Paint): string {
  const { step } = outcome;
  const what = `${step.operation} ${safeLine(step.ref)} (${step.scope})`;
  const backup = outcome.recovery?.packageBackup;
  // files changed by hand are never lost: where they were kept is said where it happened
  const kept =
    backup === undefined
      ? ""
      : `\n          kept the files that differed from the record at ${displayPath(backup, style)}`;
  if (isDone(outcome)) return `${paint("green", "done")}      ${what}${kept}`;
  if (outcome.error === undefined) return `${paint("dim", outcome.status)} ${what}`;
  const { code, message, hint, details } = outcome.error;
  const cause = typeof details?.cause === "string" ? ` (${details.cause})` : "";
  return `${paint("red", outcome.status)}    ${what}: ${code}${cause}: ${safeLine(message)}\n          next: ${safeLine(hint)}`;
}

function stepLines(step: PlanStep, style: PathStyle, paint: Paint): string[] {
  const version = step.version === undefined ? "" : ` ${safeLine(step.version)}`;
  const from = step.source === undefined ? "" : ` from ${sourceText(step.source.source, style)}`;
  const lines = [
    `  ${paint("bold", step.operation)} ${safeLine(step.ref)}${version}${from} (${step.scope})`,
  ];
  if (step.note !== undefined) lines.push(`    ${displayText(step.note, style)}`);
  if (step.operation === "update") lines.push(...beforeAfterLines(step));
  if (step.capabilities !== undefined) lines.push(...capabilityLines(step.capabilities));
  if (step.audit !== undefined) lines.push(...auditLines(step.audit, paint));
  if (step.model?.given === false) {
    lines.push(
      `    ${paint("yellow", "not given to a model")}: ${displayText(step.model.reason ?? "", style)}`,
    );
    if (step.model.next !== undefined)
      lines.push(`    next: ${displayText(step.model.next, style)}`);
  }
  // a link's key is relative to the scope's folder: the home folder for the user scope
  const at = (key: string) => safeLine(step.scope === "user" ? `~/${key}` : key);
  for (const link of step.links ?? [])
    lines.push(
      link.operation === "unlink"
        ? `    unlink from ${safeLine(link.agent)}: ${at(link.key)}`
        : `    link into ${agentsText(link)}${link.copy ? " as a copy" : ""}: ${at(link.key)}${link.inPlace ? ` ${paint("dim", "(already in place)")}` : ""}`,
    );
  for (const broken of step.dependents.newlyBroken)
    lines.push(
      `    ${paint("yellow", "breaks")} ${safeLine(broken.ref)} (${broken.scope}): it needs ${broken.missing.map(safeLine).join(", ")}`,
    );
  if (step.refusal !== undefined) {
    lines.push(
      `    ${paint("red", "refused")}: ${step.refusal.code}: ${displayText(step.refusal.message, style)}`,
    );
    lines.push(...choiceLines(step.refusal.details));
    lines.push(`    hint: ${safeLine(step.refusal.hint)}`);
  }
  return lines;
}

/** The audit's verdict on a staged tree: clean, or each finding (the first few) and what is approved. */
export function auditLines(audit: StepAudit, paint: Paint): string[] {
  if (audit.carriedBy !== undefined)
    return [
      `    audit: ${paint("dim", `the bundle's verdict, signed by ${safeLine(audit.carriedBy)}${audit.highest === undefined ? ": clean" : `: highest ${audit.highest}`}`)}`,
    ];
  const files = plural(audit.files, "file");
  if (audit.findings.length === 0 && audit.unread.length === 0)
    return [`    audit: ${paint("dim", `clean (${files})`)}`];
  const approved =
    audit.approved.length === 0 ? "" : `; approved: ${audit.approved.map(safeLine).join(", ")}`;
  const lines = [
    `    audit: ${plural(audit.findings.length, "finding")} in ${files}${audit.highest === undefined ? "" : `, highest ${audit.highest}`} (refusing at ${audit.threshold}${approved})`,
  ];
  for (const finding of audit.findings.slice(0, MAX_FINDINGS_SHOWN)) {
    const at = `${safeLine(finding.file)}${finding.line === undefined ? "" : `:${finding.line}`}`;
    const excerpt = finding.excerpt === undefined ? "" : `  ${safeLine(finding.excerpt)}`;
    lines.push(`      ${finding.severity} ${finding.rule} ${at}${excerpt}`);
  }
  if (audit.findings.length > MAX_FINDINGS_SHOWN)
    lines.push(`      and ${audit.findings.length - MAX_FINDINGS_SHOWN} more`);
  for (const file of audit.unread)
    lines.push(`      ${paint("yellow", "not read whole")}: ${safeLine(file.path)} (${file.code})`);
  return lines;
}

/** What an update changes in the lock: the commit and the tree digest, before and after. */
function beforeAfterLines(step: PlanStep): string[] {
  const { before, after } = step.lock;
  if (before === null || after === null) return [];
  const short = (value: string | undefined) => (value === undefined ? "none" : shortHash(value));
  const lines = [];
  if (before.commit !== after.commit)
    lines.push(`    commit ${short(before.commit)} → ${short(after.commit)}`);
  lines.push(
    before.digest === after.digest
      ? `    files unchanged (${short(after.digest)})`
      : `    files ${short(before.digest)} → ${short(after.digest)}`,
  );
  return lines;
}

/**
 * The skills a refusal lists: for names it does not know, each with its did-you-mean and then
 * the names on offer; otherwise every skill with its description, to choose from.
 */
function choiceLines(details: Readonly<Record<string, unknown>> | undefined): string[] {
  const skills = details?.skills;
  // a refusal for what is in a package lists its findings
  if (!Array.isArray(skills)) return leftOutLines(details?.diagnostics);
  // nothing to choose from: why each candidate was left out is the real reason
  if (skills.length === 0) return leftOutLines(details?.diagnostics);
  const unknown = details?.unknown;
  if (Array.isArray(unknown))
    return [
      ...unknown.map(
        (name: { name: string; suggestion: string | null }) =>
          `      no skill is named ${safeLine(name.name)}${name.suggestion === null ? "" : `; did you mean ${safeLine(name.suggestion)}?`}`,
      ),
      `      it offers: ${skills.map((skill: { name: string }) => safeLine(skill.name)).join(", ")}`,
    ];
  return skills.map(
    (skill: { name: string; description: string }) =>
      `      ${safeLine(skill.name)}: ${safeLine(skill.description)}`,
  );
}

/** The findings behind a refusal (why a collection's candidates were left out, what a package holds that does not load): the first few, then how many more. */
function leftOutLines(diagnostics: unknown): string[] {
  if (!Array.isArray(diagnostics)) return [];
  const shown = diagnostics.slice(0, 5) as { code: string; message: string }[];
  return [
    ...shown.map((finding) => `      ${safeLine(finding.code)}: ${safeLine(finding.message)}`),
    ...(diagnostics.length > shown.length
      ? [`      … and ${diagnostics.length - shown.length} more (--json lists them all)`]
      : []),
  ];
}

/** What an update changes in what a model is given. */
function capabilityLines(diff: CapabilityDiff): string[] {
  if (diff.unchanged) return ["    what a model is given: unchanged"];
  const named = (item: { kind: string; name: string }) => `${item.kind} ${safeLine(item.name)}`;
  return [
    "    what a model is given changes:",
    ...(diff.trustEnds === true
      ? ["      - its trust, bound to the files it replaces (skillshelf trust gives it again)"]
      : []),
    ...diff.added.map((item) => `      + ${named(item)}`),
    ...diff.removed.map((item) => `      - ${named(item)}`),
    ...diff.descriptions.map((item) => `      ~ ${named(item)}: description changed`),
    ...diff.tools.map(
      (item) => `      ~ ${named(item)}: allowed-tools ${list(item.before)} -> ${list(item.after)}`,
    ),
    ...diff.executables.map((file) => `      ! executable ${safeLine(file.path)} ${file.change}`),
    ...(diff.license === undefined
      ? []
      : [`      ~ licence ${diff.license.before ?? "none"} -> ${diff.license.after ?? "none"}`]),
  ];
}

function list(items: readonly string[]): string {
  return items.length === 0 ? "(none)" : items.map(safeLine).join(" ");
}

/** A source as the user would type it again. */
export function sourceText(source: PackageSource, style: PathStyle): string {
  return displayText(describeSource(source), style);
}

/** A link plan as people read it: the scope and project, then one line per link. */
export function linkPlanText(plan: LinkPlan, style: PathStyle, paint: Paint): string {
  const header = `Links in the ${plan.scope} scope (project ${displayPath(plan.project, style)}):`;
  if (plan.steps.length === 0) return `${header}\n  nothing to change\n`;
  const lines = [header];
  for (const step of plan.steps) {
    if (step.refusal !== undefined && step.agent === "") {
      lines.push(`  ${paint("bold", step.operation)} ${safeLine(step.name)}`);
    } else {
      const how = step.operation === "unlink" ? "" : step.copy ? " as a copy" : "";
      const state = step.inPlace ? ` ${paint("dim", "(already in place)")}` : "";
      lines.push(
        `  ${paint("bold", step.operation)} ${step.kind} ${safeLine(step.name)} ${step.operation === "link" ? "into" : "from"} ${agentsText(step)}${how}: ${displayPath(step.path, style)}${state}`,
      );
      if (step.operation === "link" && step.refusal === undefined)
        lines.push(`    → ${displayPath(step.target, style)}`);
    }
    if (step.refusal !== undefined) {
      lines.push(
        `    ${paint("red", "refused")}: ${step.refusal.code}: ${displayText(step.refusal.message, style)}`,
      );
      lines.push(`    hint: ${safeLine(step.refusal.hint)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/**
 * What a link write did, one line per link, naming the agents it serves: `planned` are the
 * links of the plan it wrote, whose other agents reading the same folder are named too.
 */
export function linkOutcomeText(
  links: readonly LinkOutcome[],
  planned: readonly { readonly key: string; readonly alsoFor?: readonly string[] | undefined }[],
  paint: Paint,
): string {
  const alsoFor = new Map(planned.map((link) => [link.key, link.alsoFor]));
  return `${links
    .map(
      (link) =>
        `${paint(link.status === "unchanged" ? "dim" : "green", link.status)} ${safeLine(link.path)} (${agentsText({ agent: link.agent, alsoFor: alsoFor.get(link.path) })})`,
    )
    .join("\n")}\n`;
}

/** The agent a link is made for, and the other agents asked for that read its folder. */
function agentsText(link: {
  readonly agent: string;
  readonly alsoFor?: readonly string[] | undefined;
}): string {
  return [link.agent, ...(link.alsoFor ?? [])].map(safeLine).join(", ");
}
