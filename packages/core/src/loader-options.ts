import { SkillshelfError } from "./errors.js";
import { SCOPES } from "./types.js";

/** What each option a loader takes must be, by name; options not named are not checked here. */
const OPTION_SHAPES: Readonly<Record<string, "string" | "boolean" | "strings" | "roots">> = {
  cwd: "string",
  home: "string",
  configDir: "string",
  project: "string",
  roots: "roots",
  explicitSkillPaths: "strings",
  packageDirs: "strings",
  toolNames: "strings",
  trustImports: "boolean",
  disableDiscovery: "boolean",
};

const TRUST = new Set(["trusted", "foreign", "untrusted"]);

/**
 * Check a loader's options at its entry, for a JavaScript caller or an older root shape that
 * TypeScript did not check: a wrong one is `option_invalid` naming it (`roots[1].source`) and
 * what it must be, never a `TypeError` from deep inside. Absent options are fine.
 */
export function assertLoaderOptions(input: object): void {
  const options = input as Readonly<Record<string, unknown>>;
  for (const [name, shape] of Object.entries(OPTION_SHAPES)) {
    const value = options[name];
    if (value === undefined) continue;
    if (shape === "roots") {
      if (!Array.isArray(value)) invalid(name, "a list of roots");
      for (const [index, root] of value.entries()) assertRoot(root, `${name}[${index}]`);
    } else if (shape === "strings") {
      if (!Array.isArray(value) || value.some((item) => typeof item !== "string"))
        invalid(name, "a list of strings");
    } else if (typeof value !== shape) invalid(name, `a ${shape}`);
  }
}

// --- internal ---

function assertRoot(root: unknown, option: string): void {
  if (typeof root !== "object" || root === null) invalid(option, "a root object");
  const fields = root as Readonly<Record<string, unknown>>;
  for (const field of ["path", "source", "origin"])
    if (typeof fields[field] !== "string" || fields[field] === "")
      invalid(`${option}.${field}`, "a non-empty string");
  if (!SCOPES.includes(fields.scope as never))
    invalid(`${option}.scope`, `one of ${SCOPES.join(", ")}`);
  if (typeof fields.precedence !== "number" || !Number.isFinite(fields.precedence))
    invalid(`${option}.precedence`, "a finite number");
  if (!TRUST.has(fields.trust as string))
    invalid(`${option}.trust`, `one of ${[...TRUST].join(", ")}`);
  if (fields.containment !== undefined && typeof fields.containment !== "string")
    invalid(`${option}.containment`, "a string");
  if (
    fields.linkTargets !== undefined &&
    (!Array.isArray(fields.linkTargets) ||
      fields.linkTargets.some((item) => typeof item !== "string"))
  )
    invalid(`${option}.linkTargets`, "a list of strings");
}

function invalid(option: string, what: string): never {
  throw new SkillshelfError("option_invalid", `the option ${option} must be ${what}`, {
    details: { option },
  });
}
