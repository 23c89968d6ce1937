import type { CodeLanguage } from "./parsers.js";

/** A piece of code in a file: a Markdown code block or span, or a whole script. */
export interface CodeFragment {
  readonly language: CodeLanguage;
  readonly text: string;
  /** 1-based line of the file where `text` starts. */
  readonly line: number;
  /** 1-based column of the file where `text`'s first line starts. */
  readonly column: number;
  /** 1-based line of the file where it ends (inclusive). */
  readonly endLine: number;
}

/** The language of a script, by its name, else by its `#!` line; `undefined` for no script. */
export function scriptLanguage(path: string, head: string): CodeLanguage | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  if (extension !== undefined && extension in BY_EXTENSION) return BY_EXTENSION[extension];
  const shebang = /^#!\s*(?:\S*\/)?(?:env\s+(?:-\S+\s+)*)?([a-z0-9]+)/i.exec(head)?.[1];
  return shebang === undefined ? undefined : BY_INTERPRETER[shebang.replace(/[\d.]+$/, "")];
}

/**
 * The code of a Markdown text: fenced blocks (``` or ~~~, the language from the info string, or
 * guessed from the code), indented blocks after a blank line outside lists, and inline code spans
 * that read as a command. Console transcripts lose their `$ ` prompts (the column stays right).
 */
export function markdownFragments(lines: readonly string[]): CodeFragment[] {
  const fragments: CodeFragment[] = [];
  let at = 0;
  let listOrProse = false;
  while (at < lines.length) {
    const line = lines[at] as string;
    const fence = FENCE.exec(line);
    if (fence !== null) {
      const [, indent = "", marker = "```", info = ""] = fence;
      const close = new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}\\s*$`);
      let end = at + 1;
      while (end < lines.length && !close.test(lines[end] as string)) end += 1;
      const body = lines
        .slice(at + 1, end)
        .map((text) => text.slice(Math.min(indent.length, leading(text))));
      const tag =
        info
          .trim()
          .split(/[\s{,]/)[0]
          ?.toLowerCase() ?? "";
      push(
        fragments,
        body,
        at + 2,
        1,
        BY_FENCE[tag] ?? (tag === "" || tag === "text" ? guess(body) : undefined),
      );
      at = end + 1;
      listOrProse = false;
      continue;
    }
    if (
      /^(?: {4}|\t)/.test(line) &&
      !listOrProse &&
      (at === 0 || (lines[at - 1] as string).trim() === "")
    ) {
      let end = at;
      while (
        end < lines.length &&
        (/^(?: {4}|\t)/.test(lines[end] as string) || (lines[end] as string).trim() === "")
      )
        end += 1;
      const body = lines.slice(at, end).map((text) => text.replace(/^(?: {4}|\t)/, ""));
      push(fragments, body, at + 1, 5, guess(body));
      at = end;
      continue;
    }
    if (line.trim() !== "") listOrProse = LIST_ITEM.test(line) || (listOrProse && /^\s/.test(line));
    else if (listOrProse && !/^\s/.test(lines[at + 1] ?? "")) listOrProse = false;
    if (line.includes("`"))
      for (const span of line.matchAll(INLINE_CODE)) {
        const text = span[2] ?? "";
        if (COMMAND_SPAN.test(text))
          fragments.push({
            language: "bash",
            text,
            line: at + 1,
            column: (span.index ?? 0) + (span[1]?.length ?? 1) + 1,
            endLine: at + 1,
          });
      }
    at += 1;
  }
  return fragments;
}

// --- internal ---

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^`]*)$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;
const INLINE_CODE = /(`+)([^`]+?)\1/g;
// a span that reads as a command line: a command word then arguments, a pipe or a substitution
const COMMAND_SPAN = /^\s*(?:[\w./~$-]+\s+\S|.*[|;]\s*\w|.*\$\()/;
const PROMPT = /^\s*(?:\$|PS>|>)\s(?=\S)/;

const BY_EXTENSION: Readonly<Record<string, CodeLanguage>> = {
  sh: "bash",
  bash: "bash",
  zsh: "bash",
  ksh: "bash",
  command: "bash",
  py: "python",
  pyw: "python",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  ts: "javascript",
  mts: "javascript",
  cts: "javascript",
  ps1: "powershell",
  psm1: "powershell",
  psd1: "powershell",
};

const BY_INTERPRETER: Readonly<Record<string, CodeLanguage>> = {
  sh: "bash",
  bash: "bash",
  zsh: "bash",
  dash: "bash",
  ksh: "bash",
  python: "python",
  node: "javascript",
  deno: "javascript",
  bun: "javascript",
  pwsh: "powershell",
  powershell: "powershell",
};

const BY_FENCE: Readonly<Record<string, CodeLanguage>> = {
  ...BY_EXTENSION,
  shell: "bash",
  console: "bash",
  terminal: "bash",
  "shell-session": "bash",
  shellsession: "bash",
  fish: "bash",
  python: "python",
  python3: "python",
  javascript: "javascript",
  node: "javascript",
  typescript: "javascript",
  jsx: "javascript",
  tsx: "javascript",
  powershell: "powershell",
  pwsh: "powershell",
  ps: "powershell",
};

/** The language an untagged block reads as: a script's `#!`, then telling words, else shell. */
function guess(body: readonly string[]): CodeLanguage {
  const text = body.join("\n");
  const first = text.trimStart();
  if (first.startsWith("#!")) return scriptLanguage("", first) ?? "bash";
  if (/^\s*(?:import\s+\w+|from\s+[\w.]+\s+import\b|def\s+\w+\(|print\()/m.test(text))
    return "python";
  if (/\b(?:Invoke-\w+|Get-\w+|Set-\w+|New-Object|\$env:)|\biex\b/i.test(text)) return "powershell";
  if (/\b(?:require\(|const\s+\w+\s*=|=>|console\.log\()/.test(text)) return "javascript";
  return "bash";
}

function push(
  fragments: CodeFragment[],
  body: readonly string[],
  line: number,
  column: number,
  language: CodeLanguage | undefined,
): void {
  if (language === undefined || body.length === 0) return;
  // a console transcript: the commands without their prompts, output lines kept as they are
  const lines =
    language === "bash"
      ? body.map((text) => text.replace(PROMPT, (match) => " ".repeat(match.length)))
      : body;
  fragments.push({
    language,
    text: lines.join("\n"),
    line,
    column,
    endLine: line + body.length - 1,
  });
}

function leading(text: string): number {
  return text.length - text.trimStart().length;
}
