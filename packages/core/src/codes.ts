import { AUDIT_CODES } from "./_codes-audit.js";
import { CHECK_CODES } from "./_codes-checks.js";
import { CORE_CODES } from "./_codes-core.js";
import { LOADER_CODES } from "./_codes-loaders.js";
import { MCP_CODES } from "./_codes-mcp.js";
import { POLICY_CODES } from "./_codes-policy.js";
import { PUBLISH_CODES } from "./_codes-publish.js";
import { RUNTIME_CODES } from "./_codes-runtime.js";
import { SOURCES_CODES } from "./_codes-sources.js";
import { STORE_CODES } from "./_codes-store.js";
import { SURFACE_CODES } from "./_codes-surface.js";

/** The packages that produce diagnostics and errors. */
export type CodeOwner =
  | "core"
  | "collision"
  | "skills-loader"
  | "prompts-loader"
  | "recipes-loader"
  | "catalog-view"
  | "registry"
  | "store"
  | "sources"
  | "audit"
  | "policy"
  | "session-logs"
  | "resources"
  | "inventory"
  | "validation"
  | "lifecycle"
  | "publish"
  | "mcp"
  | "cli";

/** One entry of the catalogue: the package that owns the code and what to do next by default. */
export interface CodeEntry {
  readonly owner: CodeOwner;
  readonly hint: string;
  /**
   * The hint when a finding's `details` name every `{placeholder}` in it (`did you mean
   * skillshelf {suggestion}?`); otherwise `hint`. Hints live here, never at a call site.
   */
  readonly hintWith?: string;
}

/**
 * Every diagnostic and error code Skillshelf produces, with its owner and default hint: the one
 * vocabulary `Diagnostic.code` and `SkillshelfError.code` take, so a misspelt code does not
 * compile and a caller can switch on codes exhaustively. docs/codes.md is generated from it.
 */
export const CODES: { readonly [K in CodeName]: CodeEntry } = {
  ...CORE_CODES,
  ...LOADER_CODES,
  ...SURFACE_CODES,
  ...STORE_CODES,
  ...SOURCES_CODES,
  ...RUNTIME_CODES,
  ...CHECK_CODES,
  ...PUBLISH_CODES,
  ...AUDIT_CODES,
  ...POLICY_CODES,
  ...MCP_CODES,
};

/** A diagnostic or error code. */
export type Code = keyof typeof CODES;

/**
 * The codes the packages `O` produce (by each code's owner): what a caller of a package can
 * switch on exhaustively, for example `CodesOf<"skills-loader" | "collision" | "core">`.
 */
export type CodesOf<O extends CodeOwner> = {
  [K in CodeName]: CodeTable[K]["owner"] extends O ? K : never;
}[CodeName];

/** What to do next about `code`: its `hintWith` filled from `details` when they name every placeholder, else its `hint`. */
export function hintOf(code: Code, details?: Readonly<Record<string, unknown>>): string {
  const entry: CodeEntry = CODES[code];
  const template = entry.hintWith;
  if (template === undefined || details === undefined) return entry.hint;
  let complete = true;
  const filled = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = details[name];
    if (value === undefined) complete = false;
    return Array.isArray(value) ? value.join(", ") : String(value);
  });
  return complete ? filled : entry.hint;
}

/** True for a string that is a code of the catalogue (for codes read back from JSON). */
export function isCode(text: string): text is Code {
  return Object.hasOwn(CODES, text);
}

// --- internal ---

type CodeTable = typeof CORE_CODES &
  typeof LOADER_CODES &
  typeof SURFACE_CODES &
  typeof STORE_CODES &
  typeof SOURCES_CODES &
  typeof RUNTIME_CODES &
  typeof CHECK_CODES &
  typeof PUBLISH_CODES &
  typeof AUDIT_CODES &
  typeof POLICY_CODES &
  typeof MCP_CODES;

type CodeName =
  | keyof typeof CORE_CODES
  | keyof typeof LOADER_CODES
  | keyof typeof SURFACE_CODES
  | keyof typeof STORE_CODES
  | keyof typeof SOURCES_CODES
  | keyof typeof RUNTIME_CODES
  | keyof typeof CHECK_CODES
  | keyof typeof PUBLISH_CODES
  | keyof typeof AUDIT_CODES
  | keyof typeof POLICY_CODES
  | keyof typeof MCP_CODES;
