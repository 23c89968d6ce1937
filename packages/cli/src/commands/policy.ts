import { type EffectivePolicy, type FromFile, policyPaths, readPolicy } from "@skillshelf/policy";
import type { CommandInput } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, painter, safeLine } from "../format.js";

/**
 * `policy`: the policy in force here, each rule with the file it came from, the files read, and
 * what is wrong with them. Exit 1 when a policy file does not read (every change is refused).
 */
export function runPolicy(input: CommandInput<{ readonly json: boolean }>): number {
  const { io } = input;
  const context = input.context();
  const policy = readPolicy(context.environment);
  const problems = [
    ...(policy.invalid === undefined ? [] : [policy.invalid]),
    ...policy.diagnostics,
  ];
  if (input.values.json) {
    printJson(io, context, {
      ok: policy.invalid === undefined,
      paths: policyPaths(context.environment),
      files: policy.files,
      rules: ruleRows(policy),
      diagnostics: problems.map(publicDiagnostic),
    });
    return policy.invalid === undefined ? 0 : 1;
  }
  const show = (path: string) => displayPath(path, context.style);
  for (const { level, path } of policyPaths(context.environment)) {
    const read = policy.files.some((file) => file.path === path);
    io.stdout(`${level.padEnd(8)} ${show(path)}${read ? "" : " (none)"}\n`);
  }
  const rows = ruleRows(policy);
  io.stdout(rows.length === 0 ? "\nno rules: anything may be installed\n" : "\n");
  for (const row of rows)
    io.stdout(`${row.rule}: ${safeLine(row.value)}\n    from ${show(row.file)}\n`);
  const paint = painter(io.color);
  for (const problem of problems) io.stderr(formatDiagnostic(problem, context.style, paint));
  return policy.invalid === undefined ? 0 : 1;
}

// --- internal ---

/** Every rule in force as one row: its key, its value in words, and its file. */
function ruleRows(
  policy: EffectivePolicy,
): { readonly rule: string; readonly value: string; readonly file: string }[] {
  const row = (rule: string, entry: FromFile<unknown>, value: string) => ({
    rule,
    value,
    file: entry.file,
  });
  const lists = (rule: string, entries: readonly FromFile<readonly string[]>[]) =>
    entries.map((entry) => row(rule, entry, entry.value.join(", ")));
  return [
    ...lists("sources.allow", policy.allowedSources),
    ...policy.blockedPackages.map((entry) => row("block.packages", entry, entry.value)),
    ...policy.blockedSkills.map((entry) => row("block.skills", entry, entry.value)),
    ...(policy.maxSeverity === undefined
      ? []
      : [row("audit.max-severity", policy.maxSeverity, policy.maxSeverity.value)]),
    ...lists("allowed-tools.widest", policy.allowedTools),
    ...(policy.signaturesRequired === undefined
      ? []
      : [row("signatures.required", policy.signaturesRequired, "true")]),
    ...lists("signatures.keys", policy.signatureKeys),
    ...(policy.pinsRequired === undefined
      ? []
      : [row("pins.required", policy.pinsRequired, "true")]),
    ...policy.mirrors.map((entry) =>
      row("mirrors", entry, `${entry.value.from} → ${entry.value.to}`),
    ),
    ...(policy.mirrorOnly === undefined ? [] : [row("mirror-only", policy.mirrorOnly, "true")]),
  ];
}
