import type { Document } from "yaml";
import { yamlLibrary } from "#yaml-library";
import { fastParseYamlList, fastParseYamlMapping } from "./_fast-yaml.js";

/** Limits applied to every YAML document Skillshelf parses. */
export interface YamlLimits {
  /** Largest YAML text accepted, in UTF-16 code units. Default 65,536. */
  readonly maxLength?: number | undefined;
  /** Most alias expansions allowed before parsing stops. Default 100. */
  readonly maxAliasCount?: number | undefined;
}

/** The outcome of parsing one YAML document that must be a mapping. */
export type YamlMappingResult =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | {
      readonly ok: false;
      readonly reason: YamlFailure;
      readonly message: string;
      readonly line?: number;
      readonly column?: number;
    };

/** The outcome of parsing one YAML document of any shape. */
export type YamlDocumentResult =
  | { readonly ok: true; readonly value: unknown }
  | Extract<YamlMappingResult, { readonly ok: false }>;

/** Why a YAML document was refused. */
export type YamlFailure = "invalid" | "not_mapping" | "too_large" | "alias_limit";

const DEFAULT_YAML_MAX_LENGTH = 65_536;
const DEFAULT_YAML_MAX_ALIAS_COUNT = 100;

/**
 * Parse YAML 1.2 (core schema, unique keys) that must hold a mapping. Blank text, or text holding
 * only comments, is an empty mapping. Plain text that the fast path fully understands is parsed
 * without the full YAML parser; anything else goes through `yaml`, with the same result.
 */
export function parseYamlMapping(
  text: string,
  options: YamlLimits & { readonly fastPath?: boolean | undefined } = {},
): YamlMappingResult {
  const refused = refuseTooLarge(text, options.maxLength);
  if (refused !== undefined) return refused;
  const fast = fastYamlMapping(text, options);
  if (fast !== undefined) return { ok: true, value: fast };
  const parsed = parseYamlDocument(text, { ...options, fastPath: false });
  if (!parsed.ok) return parsed;
  const { value } = parsed;
  if (value === null || value === undefined) return { ok: true, value: {} };
  if (typeof value !== "object" || Array.isArray(value)) {
    return {
      ok: false,
      reason: "not_mapping",
      message: `YAML holds a ${Array.isArray(value) ? "list" : typeof value}, not a mapping`,
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * The mapping the fast path reads from `text` within the limits, or `undefined` when it declines
 * (or `fastPath` is off): `parseYamlMapping`'s first step, for a caller with a step of its own
 * before the full parser.
 */
export function fastYamlMapping(
  text: string,
  options: YamlLimits & { readonly fastPath?: boolean | undefined } = {},
): Record<string, unknown> | undefined {
  if (options.fastPath === false || refuseTooLarge(text, options.maxLength) !== undefined)
    return undefined;
  return fastParseYamlMapping(text, options.maxAliasCount ?? DEFAULT_YAML_MAX_ALIAS_COUNT);
}

/**
 * Parse one YAML 1.2 document (core schema, unique keys) of any shape, with the same limits as
 * `parseYamlMapping`. Blank text is `null`. A list of plain flat mappings takes a fast path.
 */
export function parseYamlDocument(
  text: string,
  options: YamlLimits & { readonly fastPath?: boolean | undefined } = {},
): YamlDocumentResult {
  const refused = refuseTooLarge(text, options.maxLength);
  if (refused !== undefined) return refused;
  if (options.fastPath !== false) {
    // a list of plain rows (a package index) is read without the full parser, with the same result
    const list = fastParseYamlList(text);
    if (list !== undefined) return { ok: true, value: list };
  }
  const maxAliasCount = options.maxAliasCount ?? DEFAULT_YAML_MAX_ALIAS_COUNT;
  let value: unknown;
  try {
    const doc = yamlLibrary().parseDocument(text, {
      version: "1.2",
      schema: "core",
      // the library compares each key with every earlier one; firstRepeatedKey is linear
      uniqueKeys: false,
      prettyErrors: false,
      // findings become diagnostics; the library must not print warnings of its own
      logLevel: "error",
    });
    const error = doc.errors[0];
    if (error !== undefined) {
      return {
        ok: false,
        reason: "invalid",
        message: firstLine(error.message),
        ...lineAndColumn(text, error.pos[0]),
      };
    }
    const repeated = firstRepeatedKey(doc);
    if (repeated !== undefined) {
      return {
        ok: false,
        reason: "invalid",
        message: `Map keys must be unique; ${JSON.stringify(String(repeated.value))} appears twice`,
        ...lineAndColumn(text, repeated.offset),
      };
    }
    value = doc.toJS({ maxAliasCount });
  } catch (error) {
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      return {
        ok: false,
        reason: "alias_limit",
        message: `YAML expands more than ${maxAliasCount} aliases`,
      };
    }
    if (error instanceof RangeError) {
      return { ok: false, reason: "invalid", message: "YAML is nested too deeply to parse" };
    }
    throw error;
  }
  return { ok: true, value: value ?? null };
}

// --- internal ---

/** The first scalar key that repeats within one mapping, found in one pass over the document. */
function firstRepeatedKey(doc: Document): { value: unknown; offset: number } | undefined {
  let repeated: { value: unknown; offset: number } | undefined;
  const { isScalar, visit } = yamlLibrary();
  visit(doc, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        if (seen.has(pair.key.value)) {
          repeated = { value: pair.key.value, offset: pair.key.range?.[0] ?? 0 };
          return visit.BREAK;
        }
        seen.add(pair.key.value);
      }
      return undefined;
    },
  });
  return repeated;
}

function refuseTooLarge(
  text: string,
  limit: number | undefined,
): Extract<YamlMappingResult, { readonly ok: false }> | undefined {
  const maxLength = limit ?? DEFAULT_YAML_MAX_LENGTH;
  if (text.length <= maxLength) return undefined;
  return {
    ok: false,
    reason: "too_large",
    message: `YAML text is ${text.length} characters, over the ${maxLength}-character limit`,
  };
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: offset - lineStart + 1 };
}

function firstLine(message: string): string {
  const end = message.indexOf("\n");
  return (end === -1 ? message : message.slice(0, end)).trim();
}
