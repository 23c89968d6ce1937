import { createDiagnostic, type Diagnostic } from "@skillshelf/core";

/**
 * Read a tool list written as a YAML list, a comma-separated string (`Bash, Read, Write`) or a
 * space-separated string (`Bash(git:*) Read`). Separators inside parentheses or brackets do not
 * split (`Bash(git add, git commit)` stays one entry). Entries are trimmed and deduplicated,
 * first spelling kept. Returns `undefined` for a value that is not a list or a string.
 */
export function parseToolList(value: unknown): string[] | undefined {
  let entries: string[];
  if (typeof value === "string") entries = splitTopLevel(value);
  else if (Array.isArray(value))
    entries = value.filter((item): item is string => typeof item === "string");
  else return undefined;
  const seen = new Set<string>();
  const result: string[] = [];
  for (const entry of entries) {
    const trimmed = entry.trim();
    const key = trimmed.toLowerCase();
    if (trimmed === "" || seen.has(key)) continue;
    seen.add(key);
    result.push(trimmed);
  }
  return result;
}

/**
 * Resolve tool entries against the host's tool names, case-insensitively on the part before any
 * `(`: `bash(git:*)` with host tool `Bash` becomes `Bash(git:*)`. Unknown names give a
 * `tool_unknown` warning. An `allowed-tools` list naming no host tool narrows nothing: it resolves
 * to `undefined` with a `tools_unresolved` warning.
 */
export function resolveToolList(
  entries: readonly string[],
  toolNames: readonly string[],
  key: "allowed-tools" | "disallowed-tools",
  path: string,
): { tools: string[] | undefined; diagnostics: Diagnostic[] } {
  const byLowerName = new Map(toolNames.map((name) => [name.toLowerCase(), name]));
  const tools: string[] = [];
  const unknown: string[] = [];
  for (const entry of entries) {
    const open = entry.indexOf("(");
    const base = (open === -1 ? entry : entry.slice(0, open)).trim();
    const hostName = byLowerName.get(base.toLowerCase());
    if (hostName === undefined) unknown.push(entry);
    else tools.push(hostName + (open === -1 ? "" : entry.slice(open)));
  }
  const diagnostics: Diagnostic[] = [];
  if (unknown.length > 0) {
    diagnostics.push(
      createDiagnostic(
        "warning",
        "tool_unknown",
        `${key} names tools this host does not have: ${unknown.join(", ")}`,
        { path, details: { key, tools: unknown } },
      ),
    );
  }
  if (tools.length === 0 && entries.length > 0 && key === "allowed-tools") {
    diagnostics.push(
      createDiagnostic(
        "warning",
        "tools_unresolved",
        "allowed-tools names no tool this host has, so it narrows nothing",
        { path, details: { key } },
      ),
    );
  }
  return { tools: tools.length === 0 ? undefined : tools, diagnostics };
}

// --- internal ---

function splitTopLevel(text: string): string[] {
  const byComma = splitOutsideGroups(text, (char) => char === ",");
  if (byComma.length > 1) return byComma;
  return splitOutsideGroups(
    text,
    (char) => char === " " || char === "\t" || char === "\n" || char === "\r",
  );
}

function splitOutsideGroups(text: string, isSeparator: (char: string) => boolean): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char === "(" || char === "[") depth += 1;
    else if ((char === ")" || char === "]") && depth > 0) depth -= 1;
    else if (depth === 0 && isSeparator(char)) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
