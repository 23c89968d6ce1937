import { createDiagnostic, type Diagnostic, readRawYamlValue } from "@skillshelf/core";

/** What a template's frontmatter and body say about it. */
export interface PromptFields {
  readonly description: string;
  readonly argumentHint?: string;
  readonly displayOnly: boolean;
}

/** Longest description taken from the body; longer first lines are cut with `...`. */
const MAX_FALLBACK_DESCRIPTION = 60;

/**
 * Read a template's fields leniently. `description` falls back to the raw text written after it
 * (when YAML made something else of it) and then to the body's first line. `argument-hint` (or
 * `argumentHint`) is read as written even when YAML reads `[file]` as a list. `display-only` (or
 * `displayOnly`) counts only as a boolean.
 */
export function readPromptFields(
  frontmatter: Readonly<Record<string, unknown>>,
  rawYaml: () => string,
  body: string,
  path: string,
): { fields: PromptFields; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const description =
    textField(frontmatter, rawYaml, ["description"]) ?? firstLineDescription(body);
  const argumentHint = textField(frontmatter, rawYaml, ["argument-hint", "argumentHint"]);
  const displayKey = ["display-only", "displayOnly"].find((key) => frontmatter[key] !== undefined);
  const display = displayKey === undefined ? undefined : frontmatter[displayKey];
  if (display !== undefined && typeof display !== "boolean") {
    diagnostics.push(
      createDiagnostic(
        "warning",
        "field_invalid",
        `${displayKey} must be true or false; it is ignored`,
        { path, details: { key: displayKey } },
      ),
    );
  }
  return {
    fields: {
      description,
      displayOnly: display === true,
      ...(argumentHint === undefined ? {} : { argumentHint }),
    },
    diagnostics,
  };
}

/** The first non-blank body line without leading `#`s, cut to 60 characters; a default when none. */
export function firstLineDescription(body: string): string {
  const line = body
    .split("\n")
    .map((text) => text.replace(/^\s*#+\s*/, "").trim())
    .find((text) => text !== "");
  if (line === undefined) return "Prompt template";
  return line.length > MAX_FALLBACK_DESCRIPTION
    ? `${line.slice(0, MAX_FALLBACK_DESCRIPTION - 3)}...`
    : line;
}

// --- internal ---

function textField(
  frontmatter: Readonly<Record<string, unknown>>,
  rawYaml: () => string,
  keys: readonly string[],
): string | undefined {
  for (const key of keys) {
    const value = frontmatter[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
    if (value === undefined && Object.keys(frontmatter).length > 0) continue;
    // frontmatter that did not parse, or a value YAML read as a list or mapping: take it as written
    const raw = readRawYamlValue(rawYaml(), key)?.trim();
    if (raw !== undefined && raw !== "" && !/^[|>]/.test(raw)) return raw;
  }
  return undefined;
}
