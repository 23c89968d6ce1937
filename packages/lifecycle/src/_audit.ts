// The audit of a staged tree at install and update: its summary in the plan, the
// verdict its record keeps, and the refusal of findings at or above the threshold not approved.
import {
  AUDIT_RULES_VERSION,
  type AuditFinding,
  type AuditReport,
  atOrAbove,
  auditTree,
  highestSeverity,
  type Severity,
} from "@skillshelf/audit";
import type { InstallRecord } from "@skillshelf/store";
import { refusal } from "./_refusal.js";
import type { AuditRequest, Refusal, StepAudit } from "./types.js";

/** The threshold when neither the request nor a policy sets one. */
const DEFAULT_AUDIT_THRESHOLD: Severity = "high";

/**
 * Audit the staged tree at `tree` (or take the report made of it as staging read it): the plan's
 * summary, the verdict the install record keeps (bound to the record's digest, which is the staged
 * tree's), and an `audit_refused` refusal when a rule found something at or above the threshold
 * that neither the request nor an earlier approval of these same bytes (`carried`) approves.
 */
export function auditStaged(
  tree: string | AuditReport,
  request: AuditRequest | undefined,
  carried: readonly string[] = [],
): {
  readonly audit: StepAudit;
  readonly record: NonNullable<InstallRecord["audit"]>;
  readonly refusal?: Refusal;
} {
  const report = typeof tree === "string" ? auditTree(tree) : tree;
  const dir = report.root;
  const threshold = request?.threshold ?? DEFAULT_AUDIT_THRESHOLD;
  const approving = new Set([...(request?.approve ?? []), ...carried]);
  const blocking = distinctRules(
    report.findings.filter((finding) => atOrAbove(finding.severity, threshold)),
  );
  const approved = blocking.filter((rule) => approving.has(rule));
  const refused = blocking.filter((rule) => !approving.has(rule));
  const highest = highestSeverity(report.findings);
  const found = distinctRules(report.findings);
  const audit: StepAudit = {
    rules: AUDIT_RULES_VERSION,
    files: report.files,
    threshold,
    ...(highest === undefined ? {} : { highest }),
    findings: report.findings,
    approved,
    unread: report.diagnostics.map((diagnostic) => ({
      code: diagnostic.code,
      path: diagnostic.path ?? dir,
    })),
  };
  const record = {
    rules: AUDIT_RULES_VERSION,
    ...(highest === undefined ? {} : { highest }),
    ...(found.length === 0 ? {} : { found }),
    ...(approved.length === 0 ? {} : { approved }),
  };
  if (refused.length === 0) return { audit, record };
  const shown = report.findings.filter((finding) => refused.includes(finding.rule));
  return {
    audit,
    record,
    refusal: refusal(
      "audit_refused",
      `the audit found ${refused.join(", ")} at or above ${threshold}: ${shown
        .slice(0, 3)
        .map((finding) => place(finding))
        .join(", ")}${shown.length > 3 ? `, and ${shown.length - 3} more` : ""}`,
      { rules: refused, threshold, findings: shown },
    ),
  };
}

/** An audit verdict carried with a tree's exact bytes, and who vouches for it (`ssh:SHA256:…`). */
export interface CarriedVerdict {
  readonly record: NonNullable<InstallRecord["audit"]>;
  readonly by: string;
}

/**
 * Whether `verdict`, made under this rule table, finds nothing at or above `threshold`: only such
 * a verdict is taken instead of an audit (one that found more is audited again, to be refused or
 * approved here).
 */
export function verdictHolds(
  verdict: NonNullable<InstallRecord["audit"]> | undefined,
  threshold: Severity,
): boolean {
  return (
    verdict?.rules === AUDIT_RULES_VERSION &&
    (verdict.highest === undefined || !atOrAbove(verdict.highest, threshold))
  );
}

/** The step's audit when a carried verdict is taken: what it found, by whom; nothing refused. */
export function carriedAudit(
  verdict: CarriedVerdict,
  threshold: Severity,
): ReturnType<typeof auditStaged> {
  const { record, by } = verdict;
  return {
    audit: {
      rules: record.rules,
      files: 0,
      threshold,
      ...(record.highest === undefined ? {} : { highest: record.highest }),
      findings: [],
      approved: [],
      unread: [],
      carriedBy: by,
    },
    record,
  };
}

// --- internal ---

function distinctRules(findings: readonly AuditFinding[]): string[] {
  return [...new Set(findings.map((finding) => finding.rule))].sort();
}

function place(finding: AuditFinding): string {
  return `${finding.rule} in ${finding.file}${finding.line === undefined ? "" : `:${finding.line}`}`;
}
