/** A `/name args` invocation typed by a user. */
export interface PromptCommand {
  readonly name: string;
  /** The arguments split as a shell would: quotes group, unquoted whitespace separates. */
  readonly args: readonly string[];
  /** Everything after the name and the one whitespace that follows it, byte for byte. */
  readonly raw: string;
}

/**
 * Parse `/name args`. Whitespace before the `/` and the single whitespace after the name (CRLF
 * counts as one) frame the command; the rest is the raw argument text. Returns `undefined` when
 * the text is not a command.
 * @example parsePromptCommand('/review  "src/a b.ts" --fast') // { name: "review", args: ["src/a b.ts", "--fast"], raw: ' "src/a b.ts" --fast' }
 */
export function parsePromptCommand(text: string): PromptCommand | undefined {
  const start = text.search(/\S/);
  if (start === -1 || text[start] !== "/") return undefined;
  let end = start + 1;
  while (end < text.length && !/\s/.test(text[end] as string)) end += 1;
  const name = text.slice(start + 1, end);
  if (name === "") return undefined;
  const framing = text.startsWith("\r\n", end) ? 2 : end < text.length ? 1 : 0;
  const raw = text.slice(end + framing);
  return { name, args: splitArguments(raw), raw };
}

/**
 * Split argument text as a shell does, without expanding anything: `'…'` is literal, `"…"` keeps
 * spaces and takes `\"` and `\\` as escapes, a backslash outside quotes escapes the next
 * character, and unquoted whitespace (newlines included) separates. `""` is an empty argument; an
 * unclosed quote runs to the end.
 */
export function splitArguments(text: string): string[] {
  const args: string[] = [];
  let current = "";
  let started = false;
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    if (char === "'" || char === '"') {
      started = true;
      index += 1;
      while (index < text.length && text[index] !== char) {
        if (
          char === '"' &&
          text[index] === "\\" &&
          (text[index + 1] === '"' || text[index + 1] === "\\")
        )
          index += 1;
        current += text[index];
        index += 1;
      }
      index += 1;
    } else if (/\s/.test(char)) {
      if (started) args.push(current);
      current = "";
      started = false;
      index += 1;
    } else {
      if (char === "\\" && index + 1 < text.length) index += 1;
      current += text[index];
      started = true;
      index += 1;
    }
  }
  if (started) args.push(current);
  return args;
}
