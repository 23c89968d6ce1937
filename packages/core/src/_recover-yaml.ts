/**
 * Quote the top-level values that real frontmatter commonly leaves unquoted although YAML cannot
 * read them: a plain value holding `: ` (`description: Audit it. Usage: /a11y [path]`) and a flow
 * collection followed by more text (`argument-hint: [file] | --all`). Returns the rewritten text
 * and the keys it quoted, or `undefined` when there is nothing to quote.
 *
 * Only lines at indent 0 are touched, so block scalars and nested values stay as written.
 */
export function recoverYamlText(text: string): RecoveredYaml | undefined {
  const keys: string[] = [];
  let first: RecoveredYaml["first"] | undefined;
  let plain = true;
  const lines = text.split("\n").map((line, index) => {
    const cr = line.endsWith("\r") ? "\r" : "";
    const match = TOP_LEVEL_ENTRY.exec(cr === "" ? line : line.slice(0, -1));
    if (match === null) return line;
    const key = match[1] as string;
    const value = (match[2] as string).trim();
    if (!needsQuoting(value)) return line;
    keys.push(key);
    first ??= { line: index + 1, column: line.indexOf(value) + 1 };
    // ` #` may start a comment, and YAML reads some text after a flow collection
    if (value.includes(" #") || value[0] === "[" || value[0] === "{") plain = false;
    return `${key}: ${JSON.stringify(value)}${cr}`;
  });
  return first === undefined ? undefined : { text: lines.join("\n"), keys, first, plain };
}

/** Text with values quoted by `recoverYamlText`, and where the first one quoted was. */
export interface RecoveredYaml {
  readonly text: string;
  readonly keys: readonly string[];
  /** The first value quoted: its line (from 1) and column in the YAML text. */
  readonly first: { readonly line: number; readonly column: number };
  /**
   * Every value quoted is plain text holding `: ` and no ` #`: text YAML cannot read as written
   * (its error is at the first one's start).
   */
  readonly plain: boolean;
}

// --- internal ---

const TOP_LEVEL_ENTRY = /^([A-Za-z_][\w.-]*):[ \t]+(\S.*)$/;

function needsQuoting(value: string): boolean {
  const first = value[0];
  if (first === undefined || `"'|>&*!#`.includes(first)) return false;
  if (first === "[" || first === "{") return hasTextAfterFlow(value);
  return value.includes(": ");
}

/** True when a flow collection closes on this line and more than a comment follows it. */
function hasTextAfterFlow(value: string): boolean {
  let depth = 0;
  for (let index = 0; index < value.length; index++) {
    const char = value[index];
    if (char === "[" || char === "{") depth += 1;
    else if (char === "]" || char === "}") {
      depth -= 1;
      if (depth === 0) {
        const rest = value.slice(index + 1).trim();
        return rest !== "" && !rest.startsWith("#");
      }
    }
  }
  return false;
}
