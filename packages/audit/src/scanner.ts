import { relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { createDiagnostic, type Diagnostic } from "@skillshelf/core";
import type { AuditFinding } from "./audit.js";
import type { Severity } from "./rules.js";

// SARIF's levels as the audit's severities
const SEVERITY: Record<string, Severity> = {
  error: "high",
  warning: "medium",
  note: "low",
  none: "low",
};

/** Most output an external scanner may print: a SARIF log of a few thousand results. */
const MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * Run an external scanner the user named (`command` and its arguments, the folder appended; no
 * shell) and read the SARIF log it prints as findings: rule `<tool>/<ruleId>`, severity from the
 * level (error high, warning medium, note low), file and line from the first location. A
 * scanner that cannot be run or prints no SARIF is `audit_scanner_failed`, naming the command.
 */
export async function externalFindings(
  command: readonly string[],
  folder: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ readonly findings: AuditFinding[]; readonly diagnostics: Diagnostic[] }> {
  // loaded when a scanner runs, so the commands that import the audit start without it
  const { execFile } = await import("node:child_process");
  const [program = "", ...args] = command;
  const failed = (problem: string) => ({
    findings: [],
    diagnostics: [
      createDiagnostic("error", "audit_scanner_failed", `${command.join(" ")} ${problem}`, {
        path: folder,
        details: { command: command.join(" ") },
      }),
    ],
  });
  return new Promise((resolve) => {
    execFile(
      program,
      [...args, folder],
      { env: env as NodeJS.ProcessEnv, maxBuffer: MAX_OUTPUT },
      (error, stdout) => {
        let log: SarifLog;
        try {
          log = JSON.parse(stdout) as SarifLog;
        } catch {
          resolve(
            failed(
              error === null ? "printed no SARIF log" : `failed (${error.message.split("\n")[0]})`,
            ),
          );
          return;
        }
        resolve({
          findings: (log.runs ?? []).flatMap((run) => runFindings(run, folder)),
          diagnostics: [],
        });
      },
    );
  });
}

// --- internal ---

interface SarifLog {
  readonly runs?: readonly SarifRun[];
}

interface SarifRun {
  readonly tool?: { readonly driver?: { readonly name?: string } };
  readonly results?: readonly {
    readonly ruleId?: string;
    readonly level?: string;
    readonly message?: { readonly text?: string };
    readonly locations?: readonly {
      readonly physicalLocation?: {
        readonly artifactLocation?: { readonly uri?: string };
        readonly region?: { readonly startLine?: number; readonly startColumn?: number };
      };
    }[];
  }[];
}

function runFindings(run: SarifRun, folder: string): AuditFinding[] {
  const tool = run.tool?.driver?.name ?? "scanner";
  return (run.results ?? []).map((result) => {
    const location = result.locations?.[0]?.physicalLocation;
    const uri = location?.artifactLocation?.uri ?? "";
    const path = uri.startsWith("file:")
      ? relative(folder, fileURLToPath(uri)).split(sep).join("/")
      : uri;
    return {
      rule: `${tool}/${result.ruleId ?? "finding"}`,
      severity: SEVERITY[result.level ?? "warning"] ?? "medium",
      file: path,
      ...(location?.region?.startLine === undefined
        ? {}
        : { line: location.region.startLine, column: location.region.startColumn ?? 1 }),
      hint: result.message?.text ?? `see ${tool}'s documentation`,
    };
  });
}
