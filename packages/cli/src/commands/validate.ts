import { existsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Diagnostic, Environment } from "@skillshelf/core";
import {
  type ValidatedResource,
  type ValidationResult,
  validateIndex,
  validatePackage,
  validateResources,
} from "@skillshelf/validation";
import { parseCommandArgs } from "../args.js";
import { commandContext, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, painter, plural, safeLine } from "../format.js";
import { type CliIo, UsageError } from "../io.js";

export const VALIDATE_USAGE = `Usage: skillshelf validate <path…> [--kind KIND] [--strict] [--strict-keys] [--json] [--cwd DIR]

Check resources, packages and package indexes: a SKILL.md, a skill folder or a folder of them; a
prompt template; an agent recipe; a fleet contract; a package folder (plugin.json, or a Claude
Code plugin's .claude-plugin/plugin.json); an index (library.yaml, library.json,
marketplace.json). The kind is told by the path unless --kind says it.

Options:
  --kind KIND    skill, prompt, agent, fleet, package or index
  --strict       skills: apply the Agent Skills specification (name rules, name equal to the
                 folder, description and compatibility lengths, metadata as text to text, strict
                 YAML); other kinds: warnings count as errors
  --strict-keys  with --strict, skill keys outside the specification are errors, not warnings
  --json         print {"version":1,"valid":…,"strict":…,"results":[…]}
  --cwd DIR      resolve paths from DIR

Exit status: 0 valid, 1 invalid, 2 usage error.
`;

type Kind = "skill" | "prompt" | "agent" | "fleet" | "package" | "index";
const KINDS: readonly Kind[] = ["skill", "prompt", "agent", "fleet", "package", "index"];
const INDEX_NAMES = new Set(["library.yaml", "library.yml", "library.json", "marketplace.json"]);

/** One path's verdict in `validate --json`. */
export interface ValidateResult {
  readonly path: string;
  readonly kind: Kind;
  readonly valid: boolean;
  /** The names of the resources (or, for an index, the packages) found there. */
  readonly names: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
  readonly resources: readonly ValidatedResource[];
  readonly prerequisites: ValidationResult["prerequisites"];
}

export function runValidate(args: readonly string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(args, {
    kind: { type: "string" },
    strict: { type: "boolean" },
    "strict-keys": { type: "boolean" },
    json: { type: "boolean" },
    cwd: { type: "string" },
  });
  if (positionals.length === 0) throw new UsageError("name at least one path to validate");
  if (values["strict-keys"] === true && values.strict !== true)
    throw new UsageError("--strict-keys needs --strict");
  const kind = values.kind;
  if (kind !== undefined && !KINDS.includes(kind as Kind))
    throw new UsageError(`--kind ${kind} is not a kind; use ${KINDS.join(", ")}`);
  const { environment, style } = commandContext(values.cwd, io);
  const strict = values.strict === true;
  const options = {
    mode: strict ? "strict" : "lenient",
    strictKeys: values["strict-keys"] === true,
    environment,
  } as const;
  const results = positionals.map((path) => {
    const absolute = resolve(environment.cwd, path);
    return validatePath(absolute, (kind as Kind | undefined) ?? detectKind(absolute), options);
  });
  const valid = results.every((result) => result.valid);
  if (values.json === true) {
    const json = results.map((result) => ({
      ...result,
      diagnostics: result.diagnostics.map(publicDiagnostic),
      resources: result.resources.map((resource) => ({
        ...resource,
        diagnostics: resource.diagnostics.map(publicDiagnostic),
      })),
    }));
    io.stdout(`${JSON.stringify({ version: 1, valid, strict, results: json }, null, 2)}\n`);
  } else {
    const paint = painter(io.color);
    for (const result of results) {
      const mark = result.valid ? paint("green", "valid  ") : paint("red", "invalid");
      const found =
        result.kind === "package" || result.kind === "index"
          ? `${result.kind}, ${plural(result.names.length, result.kind === "index" ? "row" : "resource")}`
          : plural(result.names.length, result.kind);
      io.stdout(`${mark} ${displayPath(result.path, style)} (${found})\n`);
      for (const diagnostic of result.diagnostics)
        io.stdout(formatDiagnostic(diagnostic, style, paint).replace(/^(?=.)/gm, "  "));
      for (const need of result.prerequisites)
        io.stdout(
          `  needs ${need.type} ${safeLine(need.identifier)} (steps ${safeLine(need.steps.join(", "))})\n`,
        );
    }
  }
  return valid ? 0 : 1;
}

// --- internal ---

/** What a path holds, told by its name and place. */
function detectKind(path: string): Kind {
  const name = basename(path).toLowerCase();
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats?.isFile() === true && INDEX_NAMES.has(name)) return "index";
  if (
    stats?.isDirectory() === true &&
    (existsSync(join(path, "plugin.json")) ||
      existsSync(join(path, ".claude-plugin", "plugin.json")))
  )
    return "package";
  const folder = stats?.isDirectory() === true ? name : basename(dirname(path)).toLowerCase();
  if (stats?.isFile() === true && name === "skill.md") return "skill";
  if (folder === "agents") return "agent";
  if (folder === "fleets") return "fleet";
  if (folder === "prompts" || folder === "commands" || folder === "command") return "prompt";
  return stats?.isFile() === true ? "prompt" : "skill";
}

function validatePath(
  path: string,
  kind: Kind,
  options: { mode: "strict" | "lenient"; strictKeys: boolean; environment: Environment },
): ValidateResult {
  if (kind === "index") {
    const checked = validateIndex(path);
    return verdict(
      path,
      kind,
      checked,
      checked.rows.map((row) => `${row.kind}:${row.name}`),
    );
  }
  const checked =
    kind === "package" ? validatePackage(path, options) : validateResources(path, kind, options);
  return verdict(
    path,
    kind,
    checked,
    checked.resources.map((resource) => resource.name),
  );
}

function verdict(
  path: string,
  kind: Kind,
  checked: ValidationResult,
  names: readonly string[],
): ValidateResult {
  const { valid, diagnostics, resources, prerequisites } = checked;
  return { path, kind, valid, diagnostics, resources, prerequisites, names };
}
