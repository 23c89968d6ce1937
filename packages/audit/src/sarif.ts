import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  SarifBuilder,
  SarifResultBuilder,
  SarifRuleBuilder,
  SarifRunBuilder,
} from "node-sarif-builder";
import type { AuditReport } from "./audit.js";
import { AUDIT_RULES, AUDIT_RULES_VERSION, type Severity } from "./rules.js";

// SARIF has three levels; a critical finding and a high one are both errors
const LEVEL: Record<Severity, "error" | "warning" | "note"> = {
  critical: "error",
  high: "error",
  medium: "warning",
  low: "note",
};

/**
 * The reports as one SARIF 2.1.0 log (built with `node-sarif-builder`): one run of the
 * `skillshelf-audit` tool (its version the rule table's) with every rule, each finding a result at its file's `file:` URI, line
 * and column.
 */
export function auditSarif(reports: readonly AuditReport[]): string {
  const run = new SarifRunBuilder().initSimple({
    toolDriverName: "skillshelf-audit",
    toolDriverVersion: AUDIT_RULES_VERSION,
  });
  for (const rule of AUDIT_RULES)
    run.addRule(
      new SarifRuleBuilder().initSimple({
        ruleId: rule.id,
        shortDescriptionText: rule.title,
        fullDescriptionText: rule.rationale,
      }),
    );
  for (const report of reports)
    for (const finding of report.findings)
      run.addResult(
        new SarifResultBuilder().initSimple({
          ruleId: finding.rule,
          level: LEVEL[finding.severity],
          messageText: `${finding.excerpt ?? finding.file}: ${finding.hint}`,
          fileUri: pathToFileURL(join(report.root, ...finding.file.split("/"))).href,
          ...(finding.line === undefined
            ? {}
            : { startLine: finding.line, startColumn: finding.column ?? 1 }),
        }),
      );
  const log = new SarifBuilder();
  log.addRun(run);
  return log.buildSarifJsonString({ indent: true });
}
