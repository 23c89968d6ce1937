import { AUDIT_RULES_VERSION } from "@skillshelf/audit";
import type { Diagnostic, PackageScope } from "@skillshelf/core";
import {
  changeStageOptions,
  mcpSourceOf,
  type TrustedItem,
  trustTarget,
  trustUpstream,
  untrustTarget,
} from "@skillshelf/lifecycle";
import { consentStatus } from "@skillshelf/resources";
import { PACKAGE_SCOPES } from "@skillshelf/store";
import type { CommandInput } from "../command.js";
import { type CommandContext, printJson, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, painter, plural, safeLine, shortHash } from "../format.js";
import { approvedRules } from "./_approve.js";
import { chosenScope } from "./_scope.js";

type TrustValues = {
  readonly json: boolean;
  readonly user: boolean;
  readonly project: boolean;
  readonly approve?: readonly string[];
};

/**
 * `trust <what>`: audit a foreign package or another agent's folder and trust it for the model,
 * bound to its digest; with nothing named, list what is trusted in both scopes and whether it
 * still holds. Exit 1 when refused (or, listing, when something no longer holds).
 */
export async function runTrust(input: CommandInput<TrustValues>): Promise<number> {
  const context = input.context();
  const [target] = input.positionals;
  if (target === undefined) return listConsents(input, context);
  const audit = { approve: approvedRules(input.values.approve ?? []) };
  const { environment } = context;
  const upstream = mcpSourceOf(target, environment.cwd);
  if (upstream !== undefined) {
    // an upstream's skills are approved in the scope asked for, else the default one
    const scope = chosenScope(input, environment, false) ?? "user";
    const result = await trustUpstream({
      environment,
      scope,
      source: upstream,
      audit,
      options: changeStageOptions(environment, scope, { texts: [target], allowMcpCommand: false }),
    });
    const done: Refused | (Done<typeof result> & { readonly scope: PackageScope }) =
      "refusal" in result ? result : { ...result, scope };
    return report(input, context, done, (done) =>
      [
        ...done.trusted.map(
          (item) =>
            `approved ${safeLine(item.path)} for a gateway in the ${done.scope} scope, bound to ${shortHash(item.digest)} (audit: ${auditWords(item.audit)})\n`,
        ),
        ...(done.skipped ?? []).map((one) =>
          formatDiagnostic(one, context.style, painter(input.io.color)),
        ),
      ].join(""),
    );
  }
  const result = inScopes(input, context, (scope) =>
    trustTarget({ environment: context.environment, scope, target, audit }),
  );
  return report(input, context, result, (done) =>
    done.trusted
      .map(
        (item) =>
          `trusted ${safeLine(item.key)} in the ${done.scope} scope, bound to ${shortHash(item.digest)} (audit: ${auditWords(item.audit)})\n`,
      )
      .join(""),
  );
}

/** `untrust <what>`: take back what `trust` gave. */
export function runUntrust(input: CommandInput<TrustValues>): number {
  const context = input.context();
  const target = input.positionals[0] as string;
  const result = inScopes(input, context, (scope) =>
    untrustTarget({ environment: context.environment, scope, target }),
  );
  return report(input, context, result, (done) =>
    done.removed.map((key) => `no longer trusted: ${safeLine(key)} (${done.scope})\n`).join(""),
  );
}

// --- internal ---

function auditWords(audit: TrustedItem["audit"]): string {
  return audit.findings.length === 0
    ? "clean"
    : `${plural(audit.findings.length, "finding")}, highest ${audit.highest}`;
}

type Refused = { readonly refusal: Diagnostic; readonly audit?: unknown };
type Done<R> = Exclude<R, { readonly refusal: unknown }>;

/**
 * Run `act` in the scope asked for; with no `--user` or `--project`, in the default scope and,
 * when it knows nothing of the target there, in the other.
 */
function inScopes<R extends object>(
  input: CommandInput<TrustValues>,
  context: CommandContext,
  act: (scope: PackageScope) => R,
): (Done<R> & { readonly scope: PackageScope }) | Refused {
  const explicit = input.values.user || input.values.project;
  const first = chosenScope(input, context.environment, false) ?? "user";
  const scopes = explicit ? [first] : [first, ...PACKAGE_SCOPES.filter((one) => one !== first)];
  let refused: Refused | undefined;
  for (const scope of scopes) {
    const result = act(scope) as Done<R> | Refused;
    if (!("refusal" in result)) return { ...result, scope };
    refused = result;
    if (result.refusal.code !== "trust_target_unknown") break;
  }
  return refused as Refused;
}

function report<T extends object>(
  input: CommandInput<TrustValues>,
  context: CommandContext,
  result: T | Refused,
  text: (done: T) => string,
): number {
  const { io } = input;
  if (input.values.json) {
    printJson(
      io,
      context,
      "refusal" in result
        ? { ok: false, ...result, refusal: publicDiagnostic(result.refusal) }
        : { ok: true, ...result },
    );
    return "refusal" in result ? 1 : 0;
  }
  if (!("refusal" in result)) {
    io.stdout(text(result));
    return 0;
  }
  io.stderr(formatDiagnostic(result.refusal, context.style, painter(io.color)));
  return 1;
}

function listConsents(input: CommandInput<TrustValues>, context: CommandContext): number {
  const { io } = input;
  const status = consentStatus(context.environment);
  if (input.values.json) {
    printJson(io, context, {
      rules: AUDIT_RULES_VERSION,
      trusted: status.consents,
      diagnostics: status.diagnostics.map(publicDiagnostic),
    });
    return status.diagnostics.length === 0 ? 0 : 1;
  }
  if (status.consents.length === 0) io.stdout("nothing is trusted beyond the libraries\n");
  for (const consent of status.consents)
    io.stdout(
      `${consent.holds ? "trusted" : "revoked"}  ${safeLine(consent.key)} (${consent.scope}, ${shortHash(consent.digest)}, ${consent.at}) in ${displayPath(consent.file, context.style)}\n`,
    );
  for (const diagnostic of status.diagnostics)
    io.stderr(formatDiagnostic(diagnostic, context.style, painter(io.color)));
  return status.diagnostics.length === 0 ? 0 : 1;
}
