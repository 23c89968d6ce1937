import { recoverYamlText } from "./_recover-yaml.js";
import { createDiagnostic } from "./diagnostics.js";
import { detachText } from "./text.js";
import type { Diagnostic } from "./types.js";
import {
  fastYamlMapping,
  parseYamlMapping,
  type YamlLimits,
  type YamlMappingResult,
} from "./yaml.js";

/** The parts of a markdown file around its frontmatter block. */
export type FrontmatterSplit =
  | {
      readonly kind: "found";
      /** The YAML between the delimiter lines, line endings untouched. */
      readonly yaml: string;
      /** Everything after the closing delimiter line. */
      readonly body: string;
    }
  | { readonly kind: "missing"; readonly body: string }
  | { readonly kind: "unclosed" };

/**
 * Split a file into frontmatter and body. A leading byte-order mark is skipped; the first line must
 * be `---` and the block ends at the next line that is exactly `---` (trailing spaces and CR
 * tolerated). Without an opening line the whole text is body.
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const openingEnd = delimiterLineEnd(text, start);
  if (openingEnd === -1) return { kind: "missing", body: text.slice(start) };
  if (openingEnd >= text.length) return { kind: "unclosed" };
  const yamlStart = openingEnd + 1;
  let lineStart = yamlStart;
  while (lineStart < text.length) {
    const closingEnd = delimiterLineEnd(text, lineStart);
    if (closingEnd !== -1) {
      return {
        kind: "found",
        yaml: text.slice(yamlStart, lineStart),
        body: text.slice(closingEnd + 1),
      };
    }
    const next = text.indexOf("\n", lineStart);
    if (next === -1) break;
    lineStart = next + 1;
  }
  return { kind: "unclosed" };
}

/** Stable codes of the frontmatter diagnostics. */
export type FrontmatterCode =
  | "frontmatter_missing"
  | "frontmatter_unclosed"
  | "frontmatter_invalid"
  | "frontmatter_not_mapping"
  | "frontmatter_too_large"
  | "frontmatter_alias_limit";

export interface ParseFrontmatterOptions extends YamlLimits {
  /** Path stamped on diagnostics. */
  readonly path?: string | undefined;
  /**
   * Recover the YAML mistakes real files make (an unquoted value holding `: `, or a flow list
   * followed by more text) by quoting the value and parsing again; each recovery is a
   * `frontmatter_recovered` warning. Default true; strict validation turns it off.
   */
  readonly lenient?: boolean | undefined;
  /** Use the fast path for plain frontmatter (default true). It never changes the result. */
  readonly fastPath?: boolean | undefined;
}

export type FrontmatterResult =
  | {
      readonly ok: true;
      readonly data: Record<string, unknown>;
      readonly body: string;
      /** Warnings about recoveries; empty for clean frontmatter. */
      readonly diagnostics: readonly Diagnostic[];
    }
  | {
      readonly ok: false;
      readonly code: FrontmatterCode;
      readonly diagnostic: Diagnostic;
      /** The body, when the file had no frontmatter at all. */
      readonly body?: string;
    };

/**
 * Split and parse a file's frontmatter, which must be a YAML mapping. Never throws on bad input:
 * every failure is a result with a stable code and an error diagnostic.
 */
export function parseFrontmatter(
  text: string,
  options: ParseFrontmatterOptions = {},
): FrontmatterResult {
  const { path } = options;
  const split = splitFrontmatter(text);
  if (split.kind === "missing") {
    return {
      ...failure(
        "frontmatter_missing",
        "file has no YAML frontmatter; it must begin with a line `---`",
        path,
      ),
      body: split.body,
    };
  }
  if (split.kind === "unclosed") {
    return failure(
      "frontmatter_unclosed",
      "frontmatter has no closing `---` line; add one after the last key",
      path,
    );
  }
  // parsed values are cut from the YAML text: detach it so they do not keep a long body alive
  const yaml = split.body.length > split.yaml.length ? detachText(split.yaml) : split.yaml;
  const fast = fastYamlMapping(yaml, options);
  if (fast !== undefined) return { ok: true, data: fast, body: split.body, diagnostics: [] };
  const lenient = options.lenient !== false;
  // the usual breakage (an unquoted `: `) is seen without loading the full parser
  const quoted = lenient ? fastRecovery(yaml, options, path) : undefined;
  if (quoted !== undefined) return { ok: true, body: split.body, ...quoted };
  const parsed = parseYamlMapping(yaml, { ...options, fastPath: false });
  if (parsed.ok) return { ok: true, data: parsed.value, body: split.body, diagnostics: [] };
  if (parsed.reason === "invalid" && lenient) {
    const recovered = recoverYamlText(yaml);
    const retried = recovered === undefined ? undefined : parseYamlMapping(recovered.text, options);
    if (recovered !== undefined && retried?.ok === true) {
      const keys = recovered.keys.join(", ");
      const warning = createDiagnostic(
        "warning",
        "frontmatter_recovered",
        `frontmatter is not valid YAML (${parsed.message}); read it with the value of ${keys} quoted`,
        {
          path,
          ...position(parsed),
          details: { keys: recovered.keys },
        },
      );
      return { ok: true, data: retried.value, body: split.body, diagnostics: [warning] };
    }
  }
  return yamlFailure(parsed, path);
}

/**
 * The text written after `key:` on a top-level line of YAML that could not be parsed, or parsed
 * to something other than text: for a lenient reader that still wants a template's description or
 * argument hint. A value wholly in matching quotes loses them. `undefined` when there is no such
 * line or it has no value on it.
 */
export function readRawYamlValue(yaml: string, key: string): string | undefined {
  for (const line of yaml.split("\n")) {
    if (!line.startsWith(`${key}:`)) continue;
    const value = line.slice(key.length + 1).trim();
    if (value === "") return undefined;
    const quote = value[0];
    return (quote === '"' || quote === "'") && value.length > 1 && value.endsWith(quote)
      ? value.slice(1, -1)
      : value;
  }
  return undefined;
}

// --- internal ---

/**
 * Frontmatter broken in the usual way, recovered without the full parser: a top-level plain
 * value holding `: ` cannot be YAML, so when the fast path reads the text once `recoverYamlText`
 * quoted such values, it is read so, with the warning (and place) the full parser's error would
 * have given. Anything else (a flow collection followed by text, a ` #`) is the full parser's.
 */
function fastRecovery(
  yaml: string,
  options: ParseFrontmatterOptions,
  path: string | undefined,
): { readonly data: Record<string, unknown>; readonly diagnostics: Diagnostic[] } | undefined {
  if (options.fastPath === false) return undefined;
  const recovered = recoverYamlText(yaml);
  if (recovered === undefined || !recovered.plain) return undefined;
  const data = fastYamlMapping(recovered.text, options);
  if (data === undefined) return undefined;
  const { first, keys } = recovered;
  const warning = createDiagnostic(
    "warning",
    "frontmatter_recovered",
    `frontmatter is not valid YAML (a plain value holds a colon and a space); read it with the value of ${keys.join(", ")} quoted`,
    // the opening `---` is line 1
    { path, line: first.line + 1, column: first.column, details: { keys } },
  );
  return { data, diagnostics: [warning] };
}

/** End index of the delimiter line starting at `start`, or -1 when that line is not `---`. */
function delimiterLineEnd(text: string, start: number): number {
  if (!text.startsWith("---", start)) return -1;
  let index = start + 3;
  while (index < text.length) {
    const char = text.charCodeAt(index);
    if (char === 10) return index;
    if (char !== 32 && char !== 9 && char !== 13) return -1;
    index += 1;
  }
  return index;
}

function failure(code: FrontmatterCode, message: string, path: string | undefined) {
  return {
    ok: false as const,
    code,
    diagnostic: createDiagnostic("error", code, message, { path }),
  };
}

function yamlFailure(
  result: YamlMappingResult & { ok: false },
  path: string | undefined,
): FrontmatterResult {
  const code: FrontmatterCode = {
    invalid: "frontmatter_invalid" as const,
    not_mapping: "frontmatter_not_mapping" as const,
    too_large: "frontmatter_too_large" as const,
    alias_limit: "frontmatter_alias_limit" as const,
  }[result.reason];
  return {
    ok: false,
    code,
    diagnostic: createDiagnostic("error", code, `frontmatter: ${result.message}`, {
      path,
      ...position(result),
    }),
  };
}

/** The YAML error's position as a line of the whole file (the opening `---` is line 1). */
function position(result: YamlMappingResult & { ok: false }): { line?: number; column?: number } {
  if (result.line === undefined) return {};
  return { line: result.line + 1, column: result.column ?? 1 };
}
