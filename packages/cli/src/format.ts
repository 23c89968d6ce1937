import { relative, sep } from "node:path";
import type { Diagnostic } from "@skillshelf/core";

/** Shorten absolute paths for people: inside cwd relative to it, inside home as `~/…`. */
export interface PathStyle {
  readonly cwd: string;
  readonly home: string;
}

export function displayPath(path: string, style: PathStyle): string {
  if (path === style.cwd) return ".";
  if (path.startsWith(style.cwd + sep)) return relative(style.cwd, path);
  if (path.startsWith(style.home + sep)) return `~${sep}${relative(style.home, path)}`;
  return path;
}

/** Shorten every absolute path inside a message the same way. */
export function displayText(text: string, style: PathStyle): string {
  return text.replaceAll(`${style.cwd}${sep}`, "").replaceAll(`${style.home}${sep}`, `~${sep}`);
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

/** One diagnostic per line: `severity code path: message`. */
export function formatDiagnostic(diagnostic: Diagnostic, style: PathStyle, paint: Paint): string {
  const severity =
    diagnostic.severity === "error"
      ? paint("red", "error")
      : diagnostic.severity === "warning"
        ? paint("yellow", "warning")
        : paint("dim", "info");
  const where = diagnostic.path === undefined ? "" : ` ${displayPath(diagnostic.path, style)}`;
  return `${severity} ${diagnostic.code}${where}: ${displayText(diagnostic.message, style)}\n`;
}

/** Left-aligned columns separated by two spaces; the last column is not padded. */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  paint: Paint,
): string {
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
