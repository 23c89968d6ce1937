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
 * `skillshelf-audit` tool (its version the rule table's) with every rule; each finding a result
 * whose artifact is its path relative to its audited folder, that folder named once in the run's
 * `originalUriBaseIds` (`ROOT0`, `ROOT1`, … in report order), and whose region is its line and
 * column (a point: no end is claimed).
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
  run.run.originalUriBaseIds = Object.fromEntries(
    reports.map((report, at) => [
      `ROOT${at}`,
      { uri: `${pathToFileURL(report.root).href.replace(/\/?$/, "/")}` },
    ]),
  );
  reports.forEach((report, at) => {
    for (const finding of report.findings) {
      const result = new SarifResultBuilder().initSimple({
        ruleId: finding.rule,
        level: LEVEL[finding.severity],
        messageText: `${finding.excerpt ?? finding.file}: ${finding.hint}`,
      });
      result.setLocationArtifactUri({ uri: relativeUri(finding.file), uriBaseId: `ROOT${at}` });
      if (finding.line !== undefined)
        result.setLocationRegion({ startLine: finding.line, startColumn: finding.column ?? 1 });
      run.addResult(result);
    }
  });
  const log = new SarifBuilder();
  log.addRun(run);
  return log.buildSarifJsonString({ indent: true });
}

// --- internal ---

/** A `/`-separated relative path as a URI reference: each segment percent-encoded. */
function relativeUri(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}
