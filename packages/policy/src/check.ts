import {
  AUDIT_SEVERITIES,
  type AuditSeverity,
  type SourceType,
  sshKeyFingerprint,
} from "@skillshelf/core";
import type { EffectivePolicy } from "./read.js";

/**
 * What a policy judges of a source, as its fetcher says it (`sources`' `sourcePlace` and
 * `isSourcePinned`): its kind, where it is (`host/owner/repo`, `npm:<name>`, `local:<path>`) and
 * whether it names fixed content by itself.
 */
export interface SourceFacts {
  readonly type: SourceType;
  readonly place: string;
  readonly pinned: boolean;
}

/** What a policy judges of a package about to be installed. */
export interface PackageFacts {
  readonly id: string;
  readonly source: SourceFacts;
  /** Each skill it offers, with the tools it asks for. */
  readonly skills: readonly {
    readonly name: string;
    readonly allowedTools?: readonly string[] | undefined;
  }[];
  /** The worst severity its audit found. */
  readonly highest?: AuditSeverity | undefined;
  /** The signature checked: the fingerprint of the key that made it (`ssh:SHA256:…`), or none. */
  readonly signature?:
    | { readonly fingerprint: string }
    | { readonly missing: true }
    | { readonly invalid: string }
    | undefined;
}

/** One rule a package breaks: which, the file it came from, and in words. */
export interface PolicyViolation {
  readonly code: "policy_refused" | "signature_missing" | "signature_invalid";
  /** The rule's key in `policy.yaml`, as `sources.allow`. */
  readonly rule: string;
  readonly file: string;
  readonly message: string;
}

/** Every rule of `policy` that `facts` breaks (none when it may be installed). */
export function policyViolations(policy: EffectivePolicy, facts: PackageFacts): PolicyViolation[] {
  const found: PolicyViolation[] = [...sourceViolations(policy, facts.source)];
  const refuse = (rule: string, file: string, message: string) =>
    found.push({ code: "policy_refused", rule, file, message });
  for (const blocked of policy.blockedPackages)
    if (blocked.value === facts.id)
      refuse("block.packages", blocked.file, `${facts.id} is blocked`);
  for (const blocked of policy.blockedSkills)
    if (facts.skills.some((skill) => skill.name === blocked.value))
      refuse("block.skills", blocked.file, `the skill ${blocked.value} is blocked`);
  const severity = severityViolation(policy, facts.highest);
  if (severity !== undefined) found.push(severity);
  for (const allowed of policy.allowedTools)
    for (const skill of facts.skills)
      for (const tool of skill.allowedTools ?? [])
        if (!allowed.value.some((widest) => toolCovers(widest, tool)))
          refuse(
            "allowed-tools.widest",
            allowed.file,
            `the skill ${skill.name} asks for ${tool}, wider than allowed`,
          );
  if (policy.pinsRequired !== undefined && !facts.source.pinned)
    refuse(
      "pins.required",
      policy.pinsRequired.file,
      `${facts.source.place} is not pinned to a commit, an exact version or a digest`,
    );
  found.push(...signatureViolations(policy, facts.id, facts.signature));
  return found;
}

/** The rules of `sources.allow` that `source` breaks (a gateway's upstream is judged by these alone). */
export function sourceViolations(policy: EffectivePolicy, source: SourceFacts): PolicyViolation[] {
  return policy.allowedSources
    .filter((allowed) => !allowed.value.some((pattern) => sourceMatches(pattern, source)))
    .map((allowed) => ({
      code: "policy_refused",
      rule: "sources.allow",
      file: allowed.file,
      message: `${source.place} is not an allowed source`,
    }));
}

/**
 * The rules of `signatures.*` that `signature` of `id` breaks (an offline bundle's own signature
 * is judged by these alone).
 */
export function signatureViolations(
  policy: EffectivePolicy,
  id: string,
  signature: PackageFacts["signature"],
): PolicyViolation[] {
  const found: PolicyViolation[] = [];
  const required = policy.signaturesRequired;
  if (required !== undefined) {
    if (signature === undefined || "missing" in signature)
      found.push({
        code: "signature_missing",
        rule: "signatures.required",
        file: required.file,
        message: `${id} is not signed`,
      });
    else if ("invalid" in signature)
      found.push({
        code: "signature_invalid",
        rule: "signatures.required",
        file: required.file,
        message: `${id}'s signature does not verify: ${signature.invalid}`,
      });
  }
  if (signature !== undefined && "fingerprint" in signature)
    for (const keys of policy.signatureKeys)
      if (!keys.value.some((key) => `ssh:${sshKeyFingerprint(key)}` === signature.fingerprint))
        found.push({
          code: "signature_invalid",
          rule: "signatures.keys",
          file: keys.file,
          message: `${id} is signed by a key the policy does not name`,
        });
  return found;
}

/**
 * Whether `pattern` allows `source`: `kind:<type>` (every source of that type), `npm:<name>` or
 * `npm:@scope/*`, or a place: `<host>`, `<host>/<owner>/*`, `<host>/<owner>/<repo>`.
 */
export function sourceMatches(pattern: string, source: SourceFacts): boolean {
  if (pattern.startsWith("kind:")) return source.type === pattern.slice("kind:".length);
  const { place } = source;
  if (pattern.endsWith("/*")) return place.startsWith(pattern.slice(0, -1));
  return place === pattern || place.startsWith(`${pattern}/`);
}

/** The policy's refusal of an audit whose worst finding is above its `audit.max-severity`. */
export function severityViolation(
  policy: EffectivePolicy,
  highest: AuditSeverity | undefined,
): PolicyViolation | undefined {
  const max = policy.maxSeverity;
  if (max === undefined || highest === undefined || rank(highest) <= rank(max.value))
    return undefined;
  return {
    code: "policy_refused",
    rule: "audit.max-severity",
    file: max.file,
    message: `the audit found a ${highest} finding; at most ${max.value} is allowed`,
  };
}

/**
 * The mirror rules of `policy` as a fetch applies them (`@skillshelf/sources`' `Mirrors`): every
 * rule, the strictest file's first, each with its file; and the file that sets `mirror-only`.
 */
export function mirrorRules(policy: EffectivePolicy): {
  readonly rules: readonly { readonly from: string; readonly to: string; readonly file: string }[];
  readonly only?: { readonly file: string } | undefined;
} {
  return {
    rules: policy.mirrors.map(({ value, file }) => ({ ...value, file })),
    ...(policy.mirrorOnly === undefined ? {} : { only: { file: policy.mirrorOnly.file } }),
  };
}

/** The threshold an audit refuses at under `policy`: the default `high`, or lower when its maximum is. */
export function policyThreshold(policy: EffectivePolicy): AuditSeverity {
  const max = policy.maxSeverity?.value;
  const next = max === undefined ? undefined : AUDIT_SEVERITIES[rank(max) + 1];
  return next !== undefined && rank(next) < rank("high") ? next : "high";
}

// --- internal ---

function rank(severity: AuditSeverity): number {
  return AUDIT_SEVERITIES.indexOf(severity);
}

/** Whether the widest form `widest` covers the tool grant `tool` (`Bash` covers `Bash(git:*)`). */
function toolCovers(widest: string, tool: string): boolean {
  if (widest === tool) return true;
  const open = widest.indexOf("(");
  if (open === -1) return tool === widest || tool.startsWith(`${widest}(`);
  const name = widest.slice(0, open);
  const inner = widest.slice(open + 1, -1);
  if (!tool.startsWith(`${name}(`)) return false;
  const asked = tool.slice(name.length + 1, -1);
  const prefix = inner.replace(/:?\*$/, "");
  return inner === "*" || asked === inner || (inner.endsWith("*") && asked.startsWith(prefix));
}
