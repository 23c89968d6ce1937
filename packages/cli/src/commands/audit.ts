import { statSync } from "node:fs";
import { resolve } from "node:path";
import {
  AUDIT_RULES,
  AUDIT_RULES_VERSION,
  type AuditFinding,
  type AuditReport,
  analyzeCode,
  atOrAbove,
  auditTree,
  createCodeParsers,
  externalFindings,
  highestSeverity,
  SEVERITIES,
  type Severity,
} from "@skillshelf/audit";
import { type Environment, RESOURCE_KINDS } from "@skillshelf/core";
import { beginPass } from "@skillshelf/resources";
import type { CommandInput } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, painter, plural, safeLine } from "../format.js";

/**
 * Read the named folders — by default every folder the scope's resources are read from, the
 * installed packages' included — for danger, running nothing; list each finding with its rule,
 * severity, file, line and hint. Exit 1 when a finding is at or above `--fail-on` (default high).
 */
export async function runAudit(
  input: CommandInput<{
    readonly json: boolean;
    readonly sarif: boolean;
    readonly scanner: readonly string[];
    readonly "fail-on": Severity | undefined;
    readonly rules: boolean;
  }>,
): Promise<number> {
  const { io } = input;
  const context = input.context();
  const { environment, style } = context;
  if (input.values.rules) return printRules(input);
  const threshold = input.values["fail-on"] ?? "high";
  const folders =
    input.positionals.length > 0
      ? input.positionals.map((path) => resolve(environment.cwd, path))
      : readFolders(environment);
  const scanners = input.values.scanner.map((command) => command.trim().split(/\s+/));
  const reports: AuditReport[] = [];
  // the grammars are loaded at the first code worth reading, once for every folder
  const parsers = createCodeParsers();
  for (const folder of folders) {
    const report = await analyzeCode(auditTree(folder), parsers);
    // an external scanner's SARIF findings join the audit's own
    const external = await Promise.all(
      scanners.map((command) => externalFindings(command, folder, io.env)),
    );
    reports.push({
      ...report,
      findings: [...report.findings, ...external.flatMap((one) => one.findings)],
      diagnostics: [...report.diagnostics, ...external.flatMap((one) => one.diagnostics)],
    });
  }
  const findings = reports.flatMap((report) => report.findings);
  const failing = findings.some((finding) => atOrAbove(finding.severity, threshold));
  if (input.values.sarif) {
    const { auditSarif } = await import("@skillshelf/audit/sarif");
    io.stdout(`${auditSarif(reports)}\n`);
    return failing ? 1 : 0;
  }
  if (input.values.json) {
    printJson(io, context, {
      failOn: threshold,
      reports: reports.map((report) => ({
        ...report,
        diagnostics: report.diagnostics.map(publicDiagnostic),
      })),
    });
    return failing ? 1 : 0;
  }
  const paint = painter(io.color);
  for (const report of reports) {
    if (report.findings.length === 0 && report.diagnostics.length === 0) continue;
    io.stdout(`${displayPath(report.root, style)}\n`);
    // one block per rule, worst first: its severity and hint once, then every place it found
    for (const [rule, found] of byRule(report.findings)) {
      const first = found[0] as AuditFinding;
      const mark = atOrAbove(first.severity, threshold)
        ? paint("red", first.severity)
        : first.severity;
      io.stdout(
        `  ${mark} ${rule} (${plural(found.length, "finding")})\n    hint: ${first.hint}\n`,
      );
      for (const finding of found) {
        const place = `${safeLine(finding.file)}${finding.line === undefined ? "" : `:${finding.line}:${finding.column}`}`;
        const how =
          finding.parse === undefined
            ? ""
            : ` [${finding.parse}${finding.flow === undefined ? "" : `: ${safeLine(finding.flow)}`}]`;
        io.stdout(
          `    ${place}${finding.excerpt === undefined ? "" : `  ${safeLine(finding.excerpt)}`}${how}\n`,
        );
      }
    }
    for (const diagnostic of report.diagnostics)
      io.stdout(formatDiagnostic(diagnostic, style, paint).replace(/^(?=.)/gm, "  "));
  }
  const files = reports.reduce((sum, report) => sum + report.files, 0);
  const highest = highestSeverity(findings);
  io.stdout(
    `audited ${plural(files, "file")} in ${plural(reports.length, "folder")}: ${plural(findings.length, "finding")}${highest === undefined ? "" : ` (highest ${highest}; failing at ${threshold})`}\n`,
  );
  return failing ? 1 : 0;
}

// --- internal ---

/** Findings grouped by rule, the most severe rule first, then by id; places in report order. */
function byRule(findings: readonly AuditFinding[]): [string, AuditFinding[]][] {
  const groups = new Map<string, AuditFinding[]>();
  for (const finding of findings)
    groups.set(finding.rule, [...(groups.get(finding.rule) ?? []), finding]);
  const rank = (rule: string) =>
    SEVERITIES.indexOf((groups.get(rule) as AuditFinding[])[0]?.severity ?? "low");
  return [...groups].sort(([a], [b]) => rank(b) - rank(a) || (a < b ? -1 : a > b ? 1 : 0));
}

/** The rule table: what `--approve` takes, each rule with its severity and what it finds. */
function printRules(input: CommandInput<{ readonly json: boolean }>): number {
  const context = input.context();
  if (input.values.json) {
    printJson(input.io, context, {
      version: AUDIT_RULES_VERSION,
      rules: AUDIT_RULES.map(({ id, severity, title, rationale, remedy }) => ({
        id,
        severity,
        title,
        rationale,
        remedy,
      })),
    });
    return 0;
  }
  const width = Math.max(...AUDIT_RULES.map((rule) => rule.id.length));
  for (const rule of AUDIT_RULES)
    input.io.stdout(`${rule.id.padEnd(width)}  ${rule.severity.padEnd(8)}  ${rule.title}\n`);
  return 0;
}

/** Every folder the scope's resources of every kind are read from and that exists, once each. */
function readFolders(environment: Environment): string[] {
  const pass = beginPass(environment, { trustImports: false });
  const folders = RESOURCE_KINDS.flatMap((kind) => pass.roots(kind).map((root) => root.path));
  return [...new Set(folders)].filter((folder) =>
    statSync(folder, { throwIfNoEntry: false })?.isDirectory(),
  );
}
