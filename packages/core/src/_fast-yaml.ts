/**
 * A parser for the plain YAML most frontmatter is written in. It accepts a strict subset and returns
 * `undefined` for anything outside it, so the caller falls back to the full parser; whatever it does
 * accept it returns exactly as `yaml` (1.2, core schema) would. A differential test holds it to that.
 *
 * Accepted: top-level `key: value` lines, full-line comments and blank lines; values that are
 * one-line plain (a comment may follow), single- or double-quoted (without escapes) scalars,
 * one-line flow sequences of plain words, one-line flow mappings of `key: scalar` entries, `|`/`>`
 * block scalars (clip or strip), block sequences of scalars, one level of nested `key: scalar`
 * mappings, and top-level one-line scalars anchored (`&name value`) and aliased (`*name`) at most
 * `maxAliases` times (more is the full parser's `alias_limit`).
 *
 * @internal Exported for the benchmark and the differential tests only.
 */
export function fastParseYamlMapping(
  text: string,
  maxAliases = 0,
): Record<string, unknown> | undefined {
  if (UNSAFE_CHARACTERS.test(text)) return undefined;
  const lines = splitLines(text);
  if (lines === undefined) return undefined;
  const result: Record<string, unknown> = {};
  const anchors = new Map<string, unknown>();
  let aliases = 0;
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] as string;
    if (isBlank(line) || line.startsWith("#")) {
      index += 1;
      continue;
    }
    const entry = matchEntry(line, 0);
    if (entry === undefined || Object.hasOwn(result, entry.key)) return undefined;
    const { rest } = entry;
    if (rest.startsWith("*")) {
      const alias = ALIAS.exec(rest)?.[1];
      aliases += 1;
      if (alias === undefined || !anchors.has(alias) || aliases > maxAliases) return undefined;
      result[entry.key] = anchors.get(alias);
      index += 1;
      continue;
    }
    const anchor = rest.startsWith("&") ? ANCHOR.exec(rest) : undefined;
    if (anchor === null || (anchor !== undefined && anchors.has(anchor[1] as string)))
      return undefined;
    const parsed =
      anchor === undefined
        ? parseValue(lines, index, rest)
        : anchoredScalar(anchor[2] as string, index);
    if (parsed === undefined) return undefined;
    if (anchor !== undefined) anchors.set(anchor[1] as string, parsed.value);
    result[entry.key] = parsed.value;
    index = parsed.next;
  }
  return result;
}

/**
 * The fast path for a document that is a list of flat mappings, as package indexes are: items
 * `- key: value` at the left edge, each further key of an item indented two spaces, values as
 * `fastParseYamlMapping` takes them on one line, comments and blank lines between. `undefined`
 * for anything else, which the caller leaves to the full parser.
 *
 * @internal Exported for the benchmark and the differential tests only.
 */
export function fastParseYamlList(text: string): Record<string, unknown>[] | undefined {
  if (UNSAFE_CHARACTERS.test(text)) return undefined;
  const lines = splitLines(text);
  if (lines === undefined) return undefined;
  const items: Record<string, unknown>[] = [];
  let item: Record<string, unknown> | undefined;
  for (const line of lines) {
    if (isBlank(line) || line.startsWith("#")) continue;
    const starts = line.startsWith("- ");
    if (starts) item = {};
    else if (item === undefined || indentOf(line) !== 2) return undefined;
    else if (line.startsWith("#", 2)) continue;
    const entry = matchEntry(line, 2);
    if (entry === undefined || entry.rest === "" || Object.hasOwn(item, entry.key))
      return undefined;
    const value = parseInlineScalar(entry.rest);
    if (value === undefined) return undefined;
    item[entry.key] = value.value;
    if (starts) items.push(item);
  }
  return items.length === 0 ? undefined : items;
}

// --- internal ---

// control characters, C1, BOM and the YAML 1.1 line separators: left to the full parser
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to refuse
const UNSAFE_CHARACTERS = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;
const KEY = /^([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*):(?: +(.*))?$/;
// keys the full parser would turn into something else, and the one that would reach the prototype
const RESERVED_KEYS = new Set([
  "null",
  "Null",
  "NULL",
  "true",
  "True",
  "TRUE",
  "false",
  "False",
  "FALSE",
  "__proto__",
]);
const BLOCK_HEADER = /^([|>])(-?)$/;
const ANCHOR = /^&([A-Za-z0-9_-]+) +(\S.*)$/;
const ALIAS = /^\*([A-Za-z0-9_-]+)$/;
const FLOW_ENTRY = /^([A-Za-z_][A-Za-z0-9_-]*): (.+)$/;
// first characters that make a YAML indicator, a quote or a flow collection
const INDICATOR_START = /^[-?:,[\]{}#&*!|>'"%@`]/;
// the YAML 1.2 core schema's null, number and special-float forms; such scalars are not strings
const NON_STRING_SCALAR =
  /^(?:~|null|Null|NULL|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const TRUE = /^(?:true|True|TRUE)$/;
const FALSE = /^(?:false|False|FALSE)$/;

interface Parsed {
  readonly value: unknown;
  readonly next: number;
}

function splitLines(text: string): string[] | undefined {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const carriage = line.indexOf("\r");
    if (carriage === -1) continue;
    if (carriage !== line.length - 1) return undefined;
    lines[i] = line.slice(0, -1);
  }
  return lines;
}

function isBlank(line: string): boolean {
  return line.trim() === "";
}

function indentOf(line: string): number {
  let count = 0;
  while (line.charCodeAt(count) === 32) count += 1;
  return count;
}

function matchEntry(line: string, indent: number): { key: string; rest: string } | undefined {
  const match = KEY.exec(line.slice(indent));
  if (match === null) return undefined;
  const key = match[1] as string;
  if (RESERVED_KEYS.has(key)) return undefined;
  return { key, rest: (match[2] ?? "").trimEnd() };
}

function parseValue(lines: readonly string[], index: number, rest: string): Parsed | undefined {
  if (rest === "") return parseNested(lines, index + 1);
  const header = BLOCK_HEADER.exec(rest);
  if (header !== null)
    return parseBlockScalar(lines, index + 1, header[1] === ">", header[2] === "-");
  const value = parseInlineScalar(rest);
  return value === undefined ? undefined : { value: value.value, next: index + 1 };
}

/** The one-line scalar after an anchor's name (never a block or a nested value). */
function anchoredScalar(rest: string, index: number): Parsed | undefined {
  const value = rest.startsWith("[") || rest.startsWith("{") ? undefined : parseInlineScalar(rest);
  return value === undefined ? undefined : { value: value.value, next: index + 1 };
}

/** A key with nothing after its colon: null, a block sequence, or a one-level mapping. */
function parseNested(lines: readonly string[], start: number): Parsed | undefined {
  let first = start;
  while (first < lines.length && isBlank(lines[first] as string)) first += 1;
  const firstLine = lines[first];
  if (firstLine === undefined) return { value: null, next: first };
  const indent = indentOf(firstLine);
  const body = firstLine.slice(indent);
  if (body === "-" || body.startsWith("- ")) return parseSequence(lines, first, indent);
  if (indent === 0) return { value: null, next: start };
  return parseMapping(lines, first, indent);
}

function parseSequence(
  lines: readonly string[],
  start: number,
  indent: number,
): Parsed | undefined {
  const items: unknown[] = [];
  let index = start;
  while (index < lines.length) {
    const line = lines[index] as string;
    if (isBlank(line)) {
      index += 1;
      continue;
    }
    const lineIndent = indentOf(line);
    if (lineIndent < indent) break;
    if (lineIndent > indent || !line.startsWith("- ", indent)) {
      if (indent === 0 && lineIndent === 0) break;
      return undefined;
    }
    const item = parseInlineScalar(line.slice(indent + 2).trim());
    if (item === undefined) return undefined;
    items.push(item.value);
    index += 1;
  }
  if (indent > 0 && index < lines.length && indentOf(lines[index] as string) !== 0)
    return undefined;
  return { value: items, next: index };
}

function parseMapping(lines: readonly string[], start: number, indent: number): Parsed | undefined {
  const mapping: Record<string, unknown> = {};
  let index = start;
  while (index < lines.length) {
    const line = lines[index] as string;
    if (isBlank(line)) {
      index += 1;
      continue;
    }
    const lineIndent = indentOf(line);
    if (lineIndent === 0) break;
    if (lineIndent !== indent) return undefined;
    const entry = matchEntry(line, indent);
    if (entry === undefined || entry.rest === "" || Object.hasOwn(mapping, entry.key))
      return undefined;
    const value = parseInlineScalar(entry.rest);
    if (value === undefined) return undefined;
    mapping[entry.key] = value.value;
    index += 1;
  }
  return { value: mapping, next: index };
}

function parseBlockScalar(
  lines: readonly string[],
  start: number,
  folded: boolean,
  strip: boolean,
): Parsed | undefined {
  const firstLine = lines[start];
  if (firstLine === undefined || isBlank(firstLine)) return undefined;
  const indent = indentOf(firstLine);
  if (indent === 0) return undefined;
  const content: string[] = [];
  let index = start;
  while (index < lines.length) {
    const line = lines[index] as string;
    if (isBlank(line)) {
      if (line.length > indent) return undefined;
      content.push("");
    } else {
      const lineIndent = indentOf(line);
      if (lineIndent === 0) break;
      if (lineIndent < indent || (folded && lineIndent > indent)) return undefined;
      content.push(line.slice(indent));
    }
    index += 1;
  }
  while (content.length > 0 && content[content.length - 1] === "") content.pop();
  const joined = folded ? fold(content) : content.join("\n");
  return { value: strip ? joined : `${joined}\n`, next: index };
}

/** Folding of `>` content: a single break between text lines becomes a space; blank lines stay breaks. */
function fold(content: readonly string[]): string {
  let text = content[0] ?? "";
  let pendingBreaks = 0;
  for (let i = 1; i < content.length; i++) {
    const line = content[i] as string;
    if (line === "") {
      pendingBreaks += 1;
      continue;
    }
    text += pendingBreaks === 0 ? ` ${line}` : "\n".repeat(pendingBreaks) + line;
    pendingBreaks = 0;
  }
  return text;
}

function parseInlineScalar(raw: string): { value: unknown } | undefined {
  const text = raw.trim();
  if (text === "") return undefined;
  const first = text[0];
  if (first === '"') return parseDoubleQuoted(text);
  if (first === "'") return parseSingleQuoted(text);
  if (first === "[") return parseFlowSequence(text);
  if (first === "{") return parseFlowMapping(text);
  if (INDICATOR_START.test(text)) return undefined;
  return parsePlain(withoutComment(text), false);
}

/** A plain scalar without the comment after it: a `#` after a space starts one. */
function withoutComment(text: string): string {
  const comment = text.indexOf(" #");
  return comment === -1 ? text : text.slice(0, comment).trimEnd();
}

function parseDoubleQuoted(text: string): { value: string } | undefined {
  if (text.length < 2 || !text.endsWith('"')) return undefined;
  const inner = text.slice(1, -1);
  if (!inner.includes('"') && !inner.includes("\\")) return { value: inner };
  // the escapes YAML and JSON write alike are read as JSON reads them; any other is the parser's
  if (!JSON_LIKE_ESCAPES.test(inner)) return undefined;
  try {
    return { value: JSON.parse(text) as string };
  } catch {
    return undefined;
  }
}

/**
 * Text whose every backslash starts an escape YAML's double quotes and JSON read the same way,
 * holding no tab or control character (JSON refuses them, YAML keeps tabs).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const JSON_LIKE_ESCAPES = /^(?:[^\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*$/;

function parseSingleQuoted(text: string): { value: string } | undefined {
  if (text.length < 2 || !text.endsWith("'")) return undefined;
  const inner = text.slice(1, -1);
  if (inner.replaceAll("''", "").includes("'")) return undefined;
  return { value: inner.replaceAll("''", "'") };
}

function parseFlowSequence(text: string): { value: unknown[] } | undefined {
  if (!text.endsWith("]")) return undefined;
  const inner = text.slice(1, -1);
  if (inner.trim() === "") return { value: [] };
  const items: unknown[] = [];
  for (const part of inner.split(",")) {
    const item = part.trim();
    // a quoted item holding a comma is cut by the split and no longer ends in its quote
    const value =
      item[0] === '"'
        ? parseDoubleQuoted(item)
        : item[0] === "'"
          ? parseSingleQuoted(item)
          : item === "" || INDICATOR_START.test(item)
            ? undefined
            : parsePlain(item, true);
    if (value === undefined) return undefined;
    items.push(value.value);
  }
  return { value: items };
}

function parseFlowMapping(text: string): { value: Record<string, unknown> } | undefined {
  if (!text.endsWith("}")) return undefined;
  const inner = text.slice(1, -1);
  const mapping: Record<string, unknown> = {};
  if (inner.trim() === "") return { value: mapping };
  for (const part of inner.split(",")) {
    const entry = FLOW_ENTRY.exec(part.trim());
    if (entry === null) return undefined;
    const key = entry[1] as string;
    if (RESERVED_KEYS.has(key) || Object.hasOwn(mapping, key)) return undefined;
    const raw = (entry[2] as string).trim();
    const value =
      raw[0] === '"'
        ? parseDoubleQuoted(raw)
        : raw[0] === "'"
          ? parseSingleQuoted(raw)
          : INDICATOR_START.test(raw)
            ? undefined
            : parsePlain(raw, true);
    if (value === undefined) return undefined;
    mapping[key] = value.value;
  }
  return { value: mapping };
}

function parsePlain(text: string, inFlow: boolean): { value: unknown } | undefined {
  if (text.includes(": ") || text.endsWith(":") || text.includes(" #")) return undefined;
  if (inFlow && /[[\]{}"']/.test(text)) return undefined;
  if (TRUE.test(text)) return { value: true };
  if (FALSE.test(text)) return { value: false };
  if (NON_STRING_SCALAR.test(text)) return undefined;
  return { value: text };
}
