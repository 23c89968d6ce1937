import { join } from "node:path";
import {
  AUDIT_RULES_VERSION,
  analyzeCode,
  auditTree,
  type CodeParsers,
  createCodeParsers,
  type Severity,
} from "@skillshelf/audit";
import {
  createDiagnostic,
  type Diagnostic,
  detailsOf,
  type Environment,
  type PackageScope,
} from "@skillshelf/core";
import { packagesDir, type ScopeState } from "@skillshelf/store";
import { auditStaged } from "./_audit.js";

/** What `auditInstalled` found in a scope, and which copies it read again. */
export interface InstalledAudit {
  readonly problems: readonly Diagnostic[];
  /** The ids whose trees were audited again: those whose verdict is missing or from another rule table. */
  readonly audited: readonly string[];
}

/**
 * Check each installed copy's audit verdict, reading again only what needs it: a
 * copy whose files changed (`drifted`, as `recheckCopies` found) loses the approvals its record
 * holds (`audit_approval_stale`); a copy whose verdict was made with the same rule table is
 * taken at its record's word; any other (no verdict, an older table) is audited again, and a
 * finding at or above `threshold` whose rule is not approved is `audit_findings`.
 */
export async function auditInstalled(
  environment: Environment,
  scope: PackageScope,
  state: ScopeState,
  options: {
    readonly drifted: ReadonlySet<string>;
    readonly threshold?: Severity | undefined;
    /** The parsers code is read with; one object for several scopes loads each grammar once. */
    readonly codeParsers?: CodeParsers | undefined;
  },
): Promise<InstalledAudit> {
  const parsers = options.codeParsers ?? createCodeParsers();
  const problems: Diagnostic[] = [];
  const audited: string[] = [];
  for (const [id, record] of Object.entries(state.installed).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const path = join(packagesDir(environment, scope), id);
    const approved = record.audit?.approved ?? [];
    if (options.drifted.has(id)) {
      if (approved.length > 0)
        problems.push(
          createDiagnostic(
            "error",
            "audit_approval_stale",
            `${id} was approved for ${approved.join(", ")} as it was installed, and its files changed since: the approval no longer holds`,
            { path, details: { id, scope, approved } },
          ),
        );
      continue;
    }
    if (record.audit?.rules === AUDIT_RULES_VERSION) continue;
    audited.push(id);
    // audited as an install would be, with the approvals its record holds for these bytes
    const report = await analyzeCode(auditTree(path), parsers);
    const refused = auditStaged(report, { threshold: options.threshold }, approved).refusal;
    const rules = detailsOf(refused, "audit_refused")?.rules ?? [];
    if (refused !== undefined)
      problems.push(
        createDiagnostic(
          "error",
          "audit_findings",
          `${id}, installed ${record.audit === undefined ? "before it was audited" : `under audit rules ${record.audit.rules}`}, has findings no one approved: ${rules.join(", ")}`,
          { path, details: { id, scope, ...refused.details } },
        ),
      );
  }
  return { problems, audited };
}
