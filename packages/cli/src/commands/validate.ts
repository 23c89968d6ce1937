import { resolve } from "node:path";
import { type Diagnostic, type Environment, hasErrors, sortDiagnostics } from "@skillshelf/core";
import { loadSkills } from "@skillshelf/skills-loader";
import { parseCommandArgs } from "../args.js";
import { commandContext, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, painter, plural } from "../format.js";
import { type CliIo, UsageError } from "../io.js";
import { strictDiagnostics } from "../strict.js";

export const VALIDATE_USAGE = `Usage: skillshelf validate <path…> [--strict] [--strict-keys] [--json] [--cwd DIR]

Check skills: a SKILL.md, a skill folder, or a folder of skill folders. By default the check is
lenient, as agents load skills; --strict applies the Agent Skills specification.

Options:
  --strict       apply the specification: name rules, name equal to the folder, description and
                 compatibility lengths, metadata as text to text, strict YAML
  --strict-keys  with --strict, keys outside the specification are errors (default: warnings)
  --json         print {"version":1,"valid":…,"results":[…]}
  --cwd DIR      resolve paths from DIR

Exit status: 0 valid, 1 invalid, 2 usage error.
`;

/** One path's verdict in `validate --json`. */
export interface ValidateResult {
  readonly path: string;
  readonly valid: boolean;
  readonly skills: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

export function runValidate(args: readonly string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(args, {
    strict: { type: "boolean" },
    "strict-keys": { type: "boolean" },
    json: { type: "boolean" },
    cwd: { type: "string" },
  });
  if (positionals.length === 0) throw new UsageError("name at least one path to validate");
  if (values["strict-keys"] === true && values.strict !== true)
    throw new UsageError("--strict-keys needs --strict");
  const { environment, style } = commandContext(values.cwd, io);
  const strict = values.strict === true;
  const results = positionals.map((path) =>
    validatePath(path, environment, strict, values["strict-keys"] === true),
  );
  const valid = results.every((result) => result.valid);
  if (values.json === true) {
    const json = results.map((result) => ({
      ...result,
      diagnostics: result.diagnostics.map(publicDiagnostic),
    }));
    io.stdout(`${JSON.stringify({ version: 1, valid, strict, results: json }, null, 2)}\n`);
  } else {
    const paint = painter(io.color);
    for (const result of results) {
      const mark = result.valid ? paint("green", "valid  ") : paint("red", "invalid");
      io.stdout(
        `${mark} ${displayPath(result.path, style)} (${plural(result.skills.length, "skill")})\n`,
      );
      for (const diagnostic of result.diagnostics)
        io.stdout(`  ${formatDiagnostic(diagnostic, style, paint)}`);
    }
  }
  return valid ? 0 : 1;
}

// --- internal ---

function validatePath(
  path: string,
  environment: Environment,
  strict: boolean,
  strictKeys: boolean,
): ValidateResult {
  const loaded = loadSkills({ ...environment, disableDiscovery: true, explicitSkillPaths: [path] });
  const diagnostics = strict
    ? strictDiagnostics(loaded.items, loaded.diagnostics, { strictKeys })
    : loaded.diagnostics;
  return {
    path: resolve(environment.cwd, path),
    valid: !hasErrors(diagnostics) && loaded.items.length > 0,
    skills: loaded.items.map((skill) => skill.name),
    diagnostics: sortDiagnostics(diagnostics),
  };
}
