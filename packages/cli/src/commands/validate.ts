import { existsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  type Environment,
  errnoCode,
  folderKind,
  identityKey,
  RESOURCE_KINDS,
  type ResourceKind,
  readRegularFile,
  resourceFolder,
} from "@skillshelf/core";
import { parseOrgFile } from "@skillshelf/policy";
import {
  type ValidatedResource,
  type ValidationResult,
  validateCollection,
  validateIndex,
  validatePackage,
  validateResources,
} from "@skillshelf/validation";
import type { CommandInput } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, painter, plural, safeLine } from "../format.js";
import { UsageError } from "../usage-error.js";

type Kind = ResourceKind | "package" | "index" | "org";
const ORG_NAMES = new Set(["org.yaml", "org.yml"]);
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

export function runValidate(
  input: CommandInput<{
    readonly kind: Kind | undefined;
    readonly strict: boolean;
    readonly "strict-keys": boolean;
    readonly json: boolean;
  }>,
): number {
  const { io, positionals } = input;
  if (input.values["strict-keys"] && !input.values.strict)
    throw new UsageError("usage_invalid_value", "--strict-keys needs --strict");
  const kind = input.values.kind;
  const context = input.context();
  const { environment, style } = context;
  const strict = input.values.strict;
  const options = {
    mode: strict ? "strict" : "lenient",
    strictKeys: input.values["strict-keys"],
    environment,
  } as const;
  const results = positionals.map((path) => {
    const absolute = resolve(environment.cwd, path);
    return validatePath(absolute, kind ?? detectKind(absolute), options);
  });
  const valid = results.every((result) => result.valid);
  if (input.values.json) {
    const json = results.map((result) => ({
      ...result,
      diagnostics: result.diagnostics.map(publicDiagnostic),
      resources: result.resources.map((resource) => ({
        ...resource,
        diagnostics: resource.diagnostics.map(publicDiagnostic),
      })),
    }));
    printJson(io, context, { valid, strict, results: json });
  } else {
    const paint = painter(io.color);
    for (const result of results) {
      const mark = result.valid ? paint("green", "valid  ") : paint("red", "invalid");
      const found =
        result.kind === "index"
          ? `index, ${plural(result.names.length, "row")}`
          : result.kind === "org"
            ? `org file${result.valid ? `, ${plural(result.names.length - 1, "team")}` : ""}`
            : `${result.kind === "package" ? "package, " : ""}${kindCounts(result.resources, result.kind === "package" ? "resource" : result.kind)}`;
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

// other agents' names for a folder of prompt templates (Claude Code's, OpenCode's)
const PROMPT_FOLDER_NAMES = new Set(["commands", "command"]);

/** What a path holds, told by its name and place. */
function detectKind(path: string): Kind {
  const name = basename(path).toLowerCase();
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats?.isFile() === true && INDEX_NAMES.has(name)) return "index";
  if (stats?.isFile() === true && ORG_NAMES.has(name)) return "org";
  if (
    stats?.isDirectory() === true &&
    (existsSync(join(path, "plugin.json")) ||
      existsSync(join(path, ".claude-plugin", "plugin.json")))
  )
    return "package";
  const folder = stats?.isDirectory() === true ? name : basename(dirname(path)).toLowerCase();
  if (stats?.isFile() === true && name === "skill.md") return "skill";
  const byFolder = folderKind(PROMPT_FOLDER_NAMES.has(folder) ? "prompts" : folder);
  if (byFolder !== undefined && byFolder !== "skill") return byFolder;
  // kinds: a loose file defaults to a prompt template, anything else to a skill folder
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
      checked.rows.map((row) => identityKey(row.kind, row.name)),
    );
  }
  if (kind === "org") {
    const checked = validateOrgFile(path);
    return verdict(path, kind, checked.result, checked.names);
  }
  // a library (`.skillshelf`, the user library): each kind from its own folder, fleets too
  if (kind === "skill" && isLibrary(path, options.environment)) {
    const checked = RESOURCE_KINDS.flatMap((each) => {
      const folder = join(path, resourceFolder(each));
      return existsSync(folder) ? [validateResources(folder, each, options)] : [];
    });
    return verdict(
      path,
      kind,
      mergedResults(checked),
      checked.flatMap((one) => one.resources.map((resource) => resource.name)),
    );
  }
  const collection =
    kind === "skill" && isCollection(path) ? validateCollection(path, options) : undefined;
  if (collection !== undefined)
    return verdict(
      path,
      kind,
      collection,
      collection.resources.map((resource) => resource.name),
    );
  const checked =
    kind === "package" ? validatePackage(path, options) : validateResources(path, kind, options);
  return verdict(
    path,
    kind,
    checked,
    checked.resources.map((resource) => resource.name),
  );
}

/** An org file read as `org join` reads it: every problem, and the org's name and teams. */
function validateOrgFile(path: string): { result: ValidationResult; names: string[] } {
  let text: string;
  try {
    text = readRegularFile(path, 1024 * 1024).toString("utf8");
  } catch (error) {
    const diagnostic = createDiagnostic("error", "org_invalid", `${path} cannot be read`, {
      path,
      details: { reason: errnoCode(error) ?? String(error) },
    });
    return { result: resultOf([diagnostic]), names: [] };
  }
  const parsed = parseOrgFile(text, path);
  if (!parsed.ok) return { result: resultOf(parsed.diagnostics), names: [] };
  return {
    result: resultOf([]),
    names: [parsed.org.name, ...Object.keys(parsed.org.teams ?? {}).map((team) => `team:${team}`)],
  };
}

function resultOf(diagnostics: readonly Diagnostic[]): ValidationResult {
  return { valid: diagnostics.length === 0, diagnostics, resources: [], prerequisites: [] };
}

/** Our own library folder: a project's `.skillshelf`, or the user library. */
function isLibrary(path: string, environment: Environment): boolean {
  return basename(path) === ".skillshelf" || resolve(path) === resolve(environment.configDir);
}

/** The results of several folders validated as one. */
function mergedResults(results: readonly ValidationResult[]): ValidationResult {
  return {
    valid: results.every((result) => result.valid),
    diagnostics: results.flatMap((result) => result.diagnostics),
    resources: results.flatMap((result) => result.resources),
    prerequisites: results.flatMap((result) => result.prerequisites),
  };
}

/** How many resources of each kind were found (`1 skill, 2 prompts`); none: `0 <noun>s`. */
function kindCounts(resources: readonly ValidatedResource[], noun: string): string {
  const counts = RESOURCE_KINDS.flatMap((kind) => {
    const count = resources.filter((resource) => resource.kind === kind).length;
    return count === 0 ? [] : [plural(count, kind)];
  });
  return counts.length === 0 ? plural(0, noun) : counts.join(", ");
}

/** A folder with no manifest and no `SKILL.md` of its own: a collection, as `install` reads it. */
function isCollection(path: string): boolean {
  return (
    statSync(path, { throwIfNoEntry: false })?.isDirectory() === true &&
    !existsSync(join(path, "SKILL.md"))
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
