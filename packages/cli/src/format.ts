import { relative, sep } from "node:path";
import type { Diagnostic } from "@skillshelf/core";

/** Shorten absolute paths for people: inside cwd relative to it, inside home as `~/…`. */
export interface PathStyle {
  readonly cwd: string;
  readonly home: string;
}

/** A path shortened for people (see `PathStyle`) and made safe for a terminal (`safeLine`). */
export function displayPath(path: string, style: PathStyle): string {
  if (path === style.cwd) return ".";
  if (path.startsWith(style.cwd + sep)) return safeLine(relative(style.cwd, path));
  if (path.startsWith(style.home + sep)) return safeLine(`~${sep}${relative(style.home, path)}`);
  return safeLine(path);
}

/** Shorten every absolute path inside a message the same way, and make it one safe line. */
export function displayText(text: string, style: PathStyle): string {
  return safeLine(
    text.replaceAll(`${style.cwd}${sep}`, "").replaceAll(`${style.home}${sep}`, `~${sep}`),
  );
}

// C0 and C1 controls, DEL, and the bidirectional controls that reorder what a terminal shows
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to escape
const UNSAFE_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// the same, but a block keeps its line breaks (also CRLF) and tabs
const UNSAFE_IN_BLOCK =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to escape
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;

/**
 * Text an author, a folder name or a remote index wrote, made safe for one line of a terminal:
 * every control character is shown as an escape (`\x1b`, `\n`, `\u202e`), so nothing printed can
 * move the cursor, recolour or retitle the terminal, reorder a line or split a row. JSON output
 * never goes through this: it stays exact.
 */
export function safeLine(text: string): string {
  return text.replace(UNSAFE_IN_LINE, escapeControl);
}

/** `safeLine` for a block of text that keeps its line breaks and tabs (an expanded template, a listing). */
export function safeBlock(text: string): string {
  return text.replace(UNSAFE_IN_BLOCK, escapeControl);
}

const ANSI = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  yellow: [33, 39],
  green: [32, 39],
  cyan: [36, 39],
} as const;

export type Paint = (style: keyof typeof ANSI, text: string) => string;

export function painter(color: boolean): Paint {
  return (style, text) =>
    color ? `\u001b[${ANSI[style][0]}m${text}\u001b[${ANSI[style][1]}m` : text;
}

/** One diagnostic: `severity code path[:line[:column]]: message`, then `  hint: …` on its own line. */
export function formatDiagnostic(
  diagnostic: Diagnostic,
  style: PathStyle,
  paint: Paint,
  withHint = true,
): string {
  const severity =
    diagnostic.severity === "error"
      ? paint("red", "error")
      : diagnostic.severity === "warning"
        ? paint("yellow", "warning")
        : paint("dim", "info");
  const position = [diagnostic.line, diagnostic.column].filter((n) => n !== undefined).join(":");
  const where =
    diagnostic.path === undefined
      ? ""
      : ` ${displayPath(diagnostic.path, style)}${position === "" ? "" : `:${position}`}`;
  const hint =
    !withHint || diagnostic.hint === undefined || diagnostic.severity === "info"
      ? ""
      : `  ${paint("dim", `hint: ${displayText(diagnostic.hint, style)}`)}\n`;
  return `${severity} ${diagnostic.code}${where}: ${displayText(diagnostic.message, style)}\n${hint}`;
}

/**
 * Many findings, each on its line, with a hint said once: findings sharing a hint (one per link
 * of a fresh clone's lock) stand together where the first of them stood, their hint after the last.
 */
export function formatDiagnostics(
  diagnostics: readonly Diagnostic[],
  style: PathStyle,
  paint: Paint,
): string {
  const groups = new Map<string, Diagnostic[]>();
  for (const diagnostic of diagnostics) {
    const key =
      diagnostic.hint === undefined || diagnostic.severity === "info"
        ? `\0${groups.size}`
        : `${diagnostic.code}\0${diagnostic.hint}`;
    groups.set(key, [...(groups.get(key) ?? []), diagnostic]);
  }
  return [...groups.values()]
    .map((group) =>
      group
        .map((diagnostic, index) =>
          formatDiagnostic(diagnostic, style, paint, index === group.length - 1),
        )
        .join(""),
    )
    .join("");
}

/** Left-aligned columns separated by two spaces; the last column is not padded. Cells are made safe (`safeLine`). */
export function formatTable(
  header: readonly string[],
  cellRows: readonly (readonly string[])[],
  paint: Paint,
): string {
  const rows = cellRows.map((row) => row.map(safeLine));
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd();
  return `${[paint("bold", line(header)), ...rows.map(line)].join("\n")}\n`;
}

/** `1 skill`, `2 skills`; irregular plurals are passed in. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

// --- internal ---

function escapeControl(char: string): string {
  if (char === "\n") return "\\n";
  if (char === "\t") return "\\t";
  if (char === "\r") return "\\r";
  const code = char.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** A commit or digest as people compare them at a glance: its first 12 characters. */
export function shortHash(value: string): string {
  return value.slice(0, 12);
}
