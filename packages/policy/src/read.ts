import { lstatSync } from "node:fs";
import { join } from "node:path";
import {
  AUDIT_SEVERITIES,
  type AuditSeverity,
  createDiagnostic,
  type Diagnostic,
  decodeText,
  type Environment,
  errnoCode,
  type HintedDiagnostic,
  parseYamlMapping,
  readRegularFile,
  schemaDiagnostics,
} from "@skillshelf/core";
import { policySchema } from "./_schemas.js";
import { keptOrgPath, orgPolicyLayer } from "./org.js";
import type { PolicyRules } from "./rules.js";

/**
 * Where a policy file sits, strictest first: managed by the machine, the org joined (its kept
 * `org.yaml`, at the managed file's strength over the user and the project), the user's, the
 * project's.
 */
export type PolicyLevel = "system" | "org" | "user" | "project";

/** The managed policy's path when `SKILLSHELF_SYSTEM_POLICY` does not name another. */
export const SYSTEM_POLICY_PATH = "/etc/skillshelf/policy.yaml";

/** One policy file read. */
export interface PolicyFile {
  readonly level: PolicyLevel;
  readonly path: string;
  readonly rules: PolicyRules;
}

/** A rule's value and the file it came from. */
export interface FromFile<T> {
  readonly value: T;
  readonly file: string;
}

/**
 * The policy in force: each file's rules combined so that a lower file only tightens: sources
 * and tools must be allowed by every file that lists them, blocks add up, the lowest severity
 * and any `required` win, keys must be in every list. `invalid`: a policy file that does not
 * read, which refuses every change.
 */
export interface EffectivePolicy {
  readonly files: readonly PolicyFile[];
  readonly allowedSources: readonly FromFile<readonly string[]>[];
  readonly blockedPackages: readonly FromFile<string>[];
  readonly blockedSkills: readonly FromFile<string>[];
  readonly maxSeverity?: FromFile<AuditSeverity> | undefined;
  readonly allowedTools: readonly FromFile<readonly string[]>[];
  readonly signaturesRequired?: FromFile<true> | undefined;
  readonly signatureKeys: readonly FromFile<readonly string[]>[];
  readonly pinsRequired?: FromFile<true> | undefined;
  /** Every mirror rule, the strictest file's first: the first whose `from` a URL starts with wins. */
  readonly mirrors: readonly FromFile<{ readonly from: string; readonly to: string }>[];
  readonly mirrorOnly?: FromFile<true> | undefined;
  /** A lower file's attempt to loosen a rule above it (ignored), and files that do not read. */
  readonly diagnostics: readonly Diagnostic[];
  readonly invalid?: HintedDiagnostic | undefined;
}

/** The policy files that apply in `environment`, strictest first. */
export function policyPaths(
  environment: Environment,
): readonly { readonly level: PolicyLevel; readonly path: string }[] {
  return [
    { level: "system", path: environment.env.SKILLSHELF_SYSTEM_POLICY ?? SYSTEM_POLICY_PATH },
    { level: "org", path: keptOrgPath(environment) },
    { level: "user", path: join(environment.configDir, "policy.yaml") },
    { level: "project", path: join(environment.project, ".skillshelf", "policy.yaml") },
  ];
}

/**
 * Read every policy file of `environment` (an absent one has no rules) and the org joined, and
 * combine them. An org past its ttl that fails closed refuses every change (`org_expired`).
 */
export function readPolicy(environment: Environment): EffectivePolicy {
  const files: PolicyFile[] = [];
  const problems: HintedDiagnostic[] = [];
  const notes: Diagnostic[] = [];
  for (const { level, path } of policyPaths(environment)) {
    if (level === "org") {
      const org = orgPolicyLayer(environment, Date.now());
      if (org.file !== undefined) files.push({ level, ...org.file });
      if (org.invalid !== undefined) problems.push(org.invalid);
      if (org.diagnostic !== undefined) notes.push(org.diagnostic);
      continue;
    }
    const read = readPolicyFile(path);
    if ("problem" in read) problems.push(read.problem);
    else if (read.rules !== undefined) files.push({ level, path, rules: read.rules });
  }
  const combined = combine(files);
  return {
    ...combined,
    diagnostics: [...notes, ...combined.diagnostics],
    ...(problems[0] === undefined ? {} : { invalid: problems[0] }),
  };
}

// --- internal ---

const MAX_POLICY_BYTES = 256 * 1024;

function readPolicyFile(
  path: string,
): { readonly rules: PolicyRules | undefined } | { readonly problem: HintedDiagnostic } {
  const invalid = (why: string, line?: number) =>
    ({
      problem: createDiagnostic("error", "policy_invalid", `${path} ${why}`, {
        path,
        ...(line === undefined ? {} : { line }),
      }),
    }) as const;
  let bytes: Buffer;
  try {
    bytes = readRegularFile(path, MAX_POLICY_BYTES);
  } catch (error) {
    // a link whose target is gone is a policy someone meant, not an absent one
    if (errnoCode(error) === "ENOENT" && lstatSync(path, { throwIfNoEntry: false }) === undefined)
      return { rules: undefined };
    return invalid(`cannot be read (${errnoCode(error) ?? String(error)})`);
  }
  const text = decodeText(bytes);
  if (!text.ok) return invalid("is not UTF-8 text");
  const parsed = parseYamlMapping(text.text, { fastPath: false });
  if (!parsed.ok) return invalid(`is not a YAML mapping: ${parsed.message}`, parsed.line);
  const checked = policySchema.safeParse(parsed.value);
  if (!checked.success) {
    const [first] = schemaDiagnostics(checked.error.issues, parsed.value, path, "the policy");
    return invalid(`does not follow the policy format: ${first?.message ?? "invalid"}`);
  }
  return { rules: checked.data };
}

function combine(files: readonly PolicyFile[]): Omit<EffectivePolicy, "invalid"> {
  const diagnostics: Diagnostic[] = [];
  let maxSeverity: FromFile<AuditSeverity> | undefined;
  let signaturesRequired: FromFile<true> | undefined;
  let pinsRequired: FromFile<true> | undefined;
  let mirrorOnly: FromFile<true> | undefined;
  const loosened = (file: string, rule: string, kept: string) =>
    diagnostics.push(
      createDiagnostic(
        "warning",
        "policy_loosening_ignored",
        `${file} sets ${rule} looser than ${kept} does; the stricter rule holds`,
        { path: file, details: { rule, kept } },
      ),
    );
  for (const { path, rules } of files) {
    const severity = rules.audit?.["max-severity"];
    if (severity !== undefined) {
      if (maxSeverity === undefined || rank(severity) <= rank(maxSeverity.value))
        maxSeverity = { value: severity, file: path };
      else loosened(path, "audit.max-severity", maxSeverity.file);
    }
    const signatures = rules.signatures?.required;
    if (signatures === true) signaturesRequired ??= { value: true, file: path };
    else if (signatures === false && signaturesRequired !== undefined)
      loosened(path, "signatures.required", signaturesRequired.file);
    const pins = rules.pins?.required;
    if (pins === true) pinsRequired ??= { value: true, file: path };
    else if (pins === false && pinsRequired !== undefined)
      loosened(path, "pins.required", pinsRequired.file);
    const only = rules["mirror-only"];
    if (only === true) mirrorOnly ??= { value: true, file: path };
    else if (only === false && mirrorOnly !== undefined)
      loosened(path, "mirror-only", mirrorOnly.file);
  }
  const each = <T>(pick: (rules: PolicyRules) => T | undefined): FromFile<T>[] =>
    files.flatMap(({ path, rules }) => {
      const value = pick(rules);
      return value === undefined ? [] : [{ value, file: path }];
    });
  return {
    files,
    allowedSources: each((rules) => rules.sources?.allow),
    blockedPackages: each((rules) => rules.block?.packages).flatMap(({ value, file }) =>
      value.map((name) => ({ value: name, file })),
    ),
    blockedSkills: each((rules) => rules.block?.skills).flatMap(({ value, file }) =>
      value.map((name) => ({ value: name, file })),
    ),
    ...(maxSeverity === undefined ? {} : { maxSeverity }),
    allowedTools: each((rules) => rules["allowed-tools"]?.widest),
    ...(signaturesRequired === undefined ? {} : { signaturesRequired }),
    signatureKeys: each((rules) => rules.signatures?.keys),
    ...(pinsRequired === undefined ? {} : { pinsRequired }),
    mirrors: each((rules) => rules.mirrors).flatMap(({ value, file }) =>
      value.map((rule) => ({ value: rule, file })),
    ),
    ...(mirrorOnly === undefined ? {} : { mirrorOnly }),
    diagnostics,
  };
}

function rank(severity: AuditSeverity): number {
  return AUDIT_SEVERITIES.indexOf(severity);
}
