import { statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  type Environment,
  hasErrors,
  type ResourceRoot,
  ROOT_PRECEDENCE,
  sortDiagnostics,
} from "@skillshelf/core";
import { loadPromptTemplates } from "@skillshelf/prompts-loader";
import { loadAgentRecipes, loadFleetContracts } from "@skillshelf/recipes-loader";
import { loadSkills } from "@skillshelf/skills-loader";
import { parseCommandArgs } from "../args.js";
import { commandContext, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, painter, plural } from "../format.js";
import { type CliIo, UsageError } from "../io.js";
import { strictDiagnostics } from "../strict.js";

export const VALIDATE_USAGE = `Usage: skillshelf validate <path…> [--kind KIND] [--strict] [--strict-keys] [--json] [--cwd DIR]

Check resources: a SKILL.md, a skill folder or a folder of them; a prompt template; an agent
recipe; a fleet contract; or a folder of any of these. The kind is told by the path (SKILL.md,
agents/, fleets/, prompts/ or commands/, any other .md is a prompt) unless --kind says it.

Options:
  --kind KIND    skill, prompt, agent or fleet
  --strict       skills: apply the Agent Skills specification (name rules, name equal to the
                 folder, description and compatibility lengths, metadata as text to text, strict
                 YAML); other kinds: warnings count as errors
  --strict-keys  with --strict, skill keys outside the specification are errors, not warnings
  --json         print {"version":1,"valid":…,"strict":…,"results":[…]}
  --cwd DIR      resolve paths from DIR

Exit status: 0 valid, 1 invalid, 2 usage error.
`;

type Kind = "skill" | "prompt" | "agent" | "fleet";
const KINDS: readonly Kind[] = ["skill", "prompt", "agent", "fleet"];

/** One path's verdict in `validate --json`. */
export interface ValidateResult {
  readonly path: string;
  readonly kind: Kind;
  readonly valid: boolean;
  /** The names of the resources found there that load. */
  readonly names: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
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
    throw new UsageError(`--kind ${kind} is not a kind; use skill, prompt, agent or fleet`);
  const { environment, style } = commandContext(values.cwd, io);
  const strict = values.strict === true;
  const results = positionals.map((path) => {
    const absolute = resolve(environment.cwd, path);
    return validatePath(absolute, (kind as Kind | undefined) ?? detectKind(absolute), environment, {
      strict,
      strictKeys: values["strict-keys"] === true,
    });
  });
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
        `${mark} ${displayPath(result.path, style)} (${plural(result.names.length, result.kind)})\n`,
      );
      for (const diagnostic of result.diagnostics)
        io.stdout(`  ${formatDiagnostic(diagnostic, style, paint)}`);
    }
  }
  return valid ? 0 : 1;
}

// --- internal ---

/** What a path holds, told by its name and place. */
function detectKind(path: string): Kind {
  const name = basename(path).toLowerCase();
  const stats = statSync(path, { throwIfNoEntry: false });
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
  environment: Environment,
  options: { strict: boolean; strictKeys: boolean },
): ValidateResult {
  const loaded = loadKind(path, kind, environment);
  let diagnostics = loaded.diagnostics;
  if (options.strict) {
    diagnostics =
      kind === "skill"
        ? strictDiagnostics(loaded.skills, diagnostics, { strictKeys: options.strictKeys })
        : diagnostics.map((diagnostic) =>
            diagnostic.severity === "warning"
              ? { ...diagnostic, severity: "error" as const }
              : diagnostic,
          );
  }
  if (loaded.names.length === 0 && !hasErrors(diagnostics)) {
    const missing = createDiagnostic(
      "error",
      "path_missing",
      `no ${kind} at ${path}; check the path or --kind`,
      path,
    );
    diagnostics = [...diagnostics, missing];
  }
  return {
    path,
    kind,
    valid: !hasErrors(diagnostics),
    names: loaded.names,
    diagnostics: sortDiagnostics(diagnostics),
  };
}

function loadKind(path: string, kind: Kind, environment: Environment) {
  const root: ResourceRoot = {
    path,
    scope: "cli",
    source: "path",
    origin: "explicit",
    precedence: ROOT_PRECEDENCE.explicit,
    trust: "trusted",
  };
  const base = { ...environment, roots: [root] };
  if (kind === "skill") {
    const result = loadSkills({
      ...environment,
      disableDiscovery: true,
      explicitSkillPaths: [path],
    });
    return {
      names: result.items.map((item) => item.name),
      diagnostics: result.diagnostics,
      skills: result.items,
    };
  }
  const result =
    kind === "prompt"
      ? loadPromptTemplates(base)
      : kind === "agent"
        ? loadAgentRecipes(base)
        : loadFleetContracts(base);
  return {
    names: result.items.map((item) => item.name),
    diagnostics: result.diagnostics,
    skills: [],
  };
}
