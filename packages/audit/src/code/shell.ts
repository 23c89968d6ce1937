import type { Node, Tree } from "@vscode/tree-sitter-wasm";
import {
  baseName,
  isDecoder,
  isFetch,
  isRunner,
  isSender,
  type Resolved,
  RUNNERS,
  readsEnvFile,
  readsSecret,
  SENDERS,
  uploadsFile,
  WRAPPERS,
  writesPersistence,
} from "./_shell-commands.js";
import { type CodeJudgment, ENV_FILE, eachOfType, judged, PERSISTENCE_PATH } from "./judgment.js";
import type { CodeLanguage } from "./parsers.js";

/** Code inside a shell command (`python -c …`, `pwsh -EncodedCommand …`), for its own language's analysis. */
export interface NestedCode {
  readonly language: CodeLanguage;
  readonly text: string;
  /** Where the command holding it starts, 0-based in the fragment. */
  readonly node: Node;
}

/**
 * Judge a shell syntax tree by what flows where: fetched or decoded text into a shell or `eval`
 * (through a pipe, `$(…)`, `<(…)`, a here-string, a variable, or a file written then run); a
 * secret read into something that sends (a pipe, a substitution, a variable, `curl -d @file`);
 * writes that make something run again later; and command names built so they cannot be read.
 * Variables are resolved as far as the text allows (`C=cu; C=${C}rl; $C …` is curl).
 */
export function judgeShell(
  tree: Tree,
  nested: (code: NestedCode) => CodeJudgment[],
): CodeJudgment[] {
  const judgments: CodeJudgment[] = [];
  const scope: Scope = {
    values: new Map(),
    built: new Set(),
    taint: new Map(),
    downloaded: new Set(),
  };
  const found = (judgment: CodeJudgment) => {
    if (!judgments.some((one) => one.rule === judgment.rule && one.row === judgment.row))
      judgments.push(judgment);
  };
  eachOfType(tree.rootNode, JUDGED, (node) => {
    switch (node.type) {
      case "variable_assignment":
        assign(node, scope);
        return;
      case "pipeline":
        judgePipeline(node, scope, found);
        return;
      case "redirected_statement":
        judgeRedirects(node, scope, found);
        return;
      case "command":
        judgeCommand(node, scope, found, nested);
        return;
    }
  });
  return judgments;
}

// --- internal ---

interface Scope {
  /** Each variable's text, where the text says it. */
  readonly values: Map<string, string>;
  /** Variables whose text was assembled (parts joined, escapes decoded) rather than written whole. */
  readonly built: Set<string>;
  /** What a variable was given from a substitution: fetched, decoded or secret text. */
  readonly taint: Map<string, Taint>;
  /** Names of files a fetch wrote. */
  readonly downloaded: Set<string>;
}

interface Taint {
  readonly fetched: boolean;
  readonly decoded: boolean;
  readonly secret: boolean;
}

// the nodes a shell is judged by, and those a substitution's taint is read from
const JUDGED = ["variable_assignment", "pipeline", "redirected_statement", "command"];
const TAINTED = ["command", "simple_expansion", "expansion"];

const INLINE_CODE: Readonly<
  Record<string, { readonly flags: RegExp; readonly language: CodeLanguage }>
> = {
  python: { flags: /^-\w*c$/, language: "python" },
  python2: { flags: /^-\w*c$/, language: "python" },
  python3: { flags: /^-\w*c$/, language: "python" },
  node: { flags: /^(?:-e|--eval|-p|--print)$/, language: "javascript" },
  deno: { flags: /^eval$/, language: "javascript" },
  pwsh: { flags: /^-(?:c|command)$/i, language: "powershell" },
  powershell: { flags: /^-(?:c|command)$/i, language: "powershell" },
};

function assign(node: Node, scope: Scope): void {
  const name = node.childForFieldName("name")?.text;
  const value = node.childForFieldName("value");
  if (name === undefined) return;
  if (value === null) {
    scope.values.set(name, "");
    return;
  }
  const text = wordText(value, scope);
  if (text === undefined) scope.values.delete(name);
  else scope.values.set(name, text);
  if (assembled(value, scope)) scope.built.add(name);
  else scope.built.delete(name);
  const taint = substitutionTaint(value, scope);
  if (taint.fetched || taint.decoded || taint.secret) scope.taint.set(name, taint);
  else scope.taint.delete(name);
}

/**
 * The text a word stands for, resolving variables the scope knows, quotes and escapes;
 * `undefined` when any part of it is only known when it runs (a substitution, an unknown variable).
 */
function wordText(node: Node, scope: Scope): string | undefined {
  switch (node.type) {
    case "word":
    case "number":
    case "command_name":
    case "string_content":
      return node.namedChildCount > 0 && node.type === "command_name"
        ? wordText(node.namedChildren[0] as Node, scope)
        : node.text.replace(/\\(.)/g, "$1");
    case "raw_string":
      return node.text.slice(1, -1);
    case "ansi_c_string":
      return decodeEscapes(node.text.slice(2, -1));
    case "simple_expansion":
    case "expansion": {
      const name = node.namedChildren.find((child) => child?.type === "variable_name")?.text;
      return name === undefined ? undefined : scope.values.get(name);
    }
    case "string":
    case "concatenation": {
      let text = "";
      for (const child of node.namedChildren) {
        if (child === null) continue;
        const part = wordText(child, scope);
        if (part === undefined) return undefined;
        text += part;
      }
      // a string with no named children is its text between the quotes
      return node.namedChildCount === 0 && node.type === "string" ? node.text.slice(1, -1) : text;
    }
    default:
      return undefined;
  }
}

function decodeEscapes(text: string): string {
  return text.replace(
    /\\(?:x([0-9a-fA-F]{1,2})|([0-7]{1,3})|(.))/g,
    (_, hex?: string, octal?: string, other?: string) =>
      hex !== undefined
        ? String.fromCharCode(Number.parseInt(hex, 16))
        : octal !== undefined
          ? String.fromCharCode(Number.parseInt(octal, 8))
          : other === "n"
            ? "\n"
            : other === "t"
              ? "\t"
              : (other ?? ""),
  );
}

/**
 * Whether a word's text is assembled rather than written: parts joined with a variable, escapes
 * decoded (`c\\url`, `$'\\x63url'`), or a variable that was itself assembled.
 */
function assembled(node: Node, scope: Scope): boolean {
  switch (node.type) {
    case "ansi_c_string":
      return /\\/.test(node.text);
    case "word":
      return /\\./.test(node.text);
    case "simple_expansion":
    case "expansion": {
      const name = node.namedChildren.find((child) => child?.type === "variable_name")?.text;
      return name !== undefined && scope.built.has(name);
    }
    case "command_name":
    case "string":
    case "concatenation": {
      const parts = node.namedChildren.filter((child): child is Node => child !== null);
      const expansions = parts.filter(
        (part) => part.type === "simple_expansion" || part.type === "expansion",
      );
      return (
        (node.type === "concatenation" && expansions.length > 0) ||
        expansions.length > 1 ||
        parts.some((part) => assembled(part, scope))
      );
    }
    default:
      return false;
  }
}

/** The command a `command` node runs, wrappers taken off. */
function resolveCommand(node: Node, scope: Scope): Resolved {
  const nameNode = node.childForFieldName("name");
  const words: (string | undefined)[] = [];
  if (nameNode !== null) words.push(wordText(nameNode, scope));
  for (const arg of node.childrenForFieldName("argument"))
    if (arg !== null) words.push(wordText(arg, scope) ?? arg.text);

  while (words.length > 1 && WRAPPERS.has(baseName(words[0]) ?? "")) {
    words.shift();
    // env's assignments and every wrapper's options come before the command
    while (
      words.length > 1 &&
      (/^-/.test(words[0] ?? "") ||
        /^\w+=/.test(words[0] ?? "") ||
        /^\d+[smhd]?$/.test(words[0] ?? ""))
    )
      words.shift();
  }
  const name = baseName(words[0]);
  return {
    name,
    args: words.slice(1).map((word) => word ?? ""),
    built: name !== undefined && nameNode !== null && assembled(nameNode, scope),
  };
}

/** What the commands inside `node`'s substitutions (`$(…)`, backticks, `<(…)`) do, and its variables' taint. */
function substitutionTaint(node: Node, scope: Scope): Taint {
  let fetched = false;
  let decoded = false;
  let secret = false;
  eachOfType(node, TAINTED, (inner) => {
    if (inner.type === "command") {
      const command = resolveCommand(inner, scope);
      fetched ||= isFetch(command);
      decoded ||= isDecoder(command);
      secret ||= readsSecret(command) || readsEnvFile(command);
    } else if (inner.type === "simple_expansion" || inner.type === "expansion") {
      const name = inner.namedChildren.find((child) => child?.type === "variable_name")?.text;
      const taint = name === undefined ? undefined : scope.taint.get(name);
      fetched ||= taint?.fetched === true;
      decoded ||= taint?.decoded === true;
      secret ||= taint?.secret === true;
    }
  });
  return { fetched, decoded, secret };
}

function stageCommand(node: Node): Node | undefined {
  if (node.type === "command") return node;
  if (node.type === "redirected_statement") {
    const body = node.childForFieldName("body");
    return body?.type === "command" ? body : undefined;
  }
  return undefined;
}

function judgePipeline(node: Node, scope: Scope, found: (judgment: CodeJudgment) => void): void {
  const stages = node.namedChildren.flatMap((child) => {
    const command = child === null ? undefined : stageCommand(child);
    return command === undefined
      ? []
      : [{ node: command, command: resolveCommand(command, scope) }];
  });
  let source: string | undefined;
  let secret: string | undefined;
  for (const { command, node: stage } of stages) {
    const taint = substitutionTaint(stage, scope);
    if (source !== undefined && isRunner(command)) {
      found(judged("download-and-run", node, `${source} → ${command.name}`));
      return;
    }
    if (
      secret !== undefined &&
      (isSender(command) || (command.name !== undefined && SENDERS.has(command.name)))
    ) {
      found(judged("exfiltration", node, `${secret} → ${command.name}`));
      return;
    }
    if (isFetch(command) || isDecoder(command) || (taint.fetched && command.name === "echo"))
      source ??= command.name;
    if (readsSecret(command) || readsEnvFile(command) || taint.secret) secret ??= command.name;
  }
}

function judgeRedirects(node: Node, scope: Scope, found: (judgment: CodeJudgment) => void): void {
  const body = node.childForFieldName("body");
  const command = body?.type === "command" ? resolveCommand(body, scope) : undefined;
  for (const redirect of node.childrenForFieldName("redirect")) {
    if (redirect === null) continue;
    if (redirect.type === "file_redirect") {
      const destination = redirect.childForFieldName("destination");
      const target =
        destination === null ? undefined : (wordText(destination, scope) ?? destination.text);
      if (target === undefined) continue;
      if (
        PERSISTENCE_PATH.test(target) &&
        /^\s*(?:>>?|&>>?|>\|)/.test(redirect.text.replace(/^\d/, ""))
      )
        found(judged("persistence", node, `→ ${target}`));
      if (
        /\/dev\/(?:tcp|udp)\//.test(target) &&
        command !== undefined &&
        (readsSecret(command) || substitutionTaint(body as Node, scope).secret)
      )
        found(judged("exfiltration", node, `${command.name} → ${target}`));
      if (command !== undefined && isFetch(command) && /^\s*>/.test(redirect.text))
        scope.downloaded.add(baseName(target) ?? target);
    } else if (command !== undefined) judgeHereString(node, redirect, command, scope, found);
  }
}

function judgeCommand(
  node: Node,
  scope: Scope,
  found: (judgment: CodeJudgment) => void,
  nested: (code: NestedCode) => CodeJudgment[],
): void {
  const command = resolveCommand(node, scope);
  const { name, args } = command;
  const nameNode = node.childForFieldName("name");
  // the program itself is fetched text: `$(curl …)`
  if (nameNode !== null && substitutionTaint(nameNode, scope).fetched) {
    found(judged("download-and-run", node, "fetched text run as a command"));
    return;
  }
  if (name === undefined) {
    if (nameNode !== null && /\$/.test(nameNode.text))
      found(judged("obfuscated-command", node, `${nameNode.text} is only known when it runs`));
    return;
  }
  if (command.built) found(judged("obfuscated-command", node, `${nameNode?.text ?? ""} → ${name}`));
  const argsTaint = node.childrenForFieldName("argument").reduce<Taint>(
    (all, arg) => {
      if (arg === null) return all;
      const taint = substitutionTaint(arg, scope);
      return {
        fetched: all.fetched || taint.fetched,
        decoded: all.decoded || taint.decoded,
        secret: all.secret || taint.secret,
      };
    },
    { fetched: false, decoded: false, secret: false },
  );
  for (const redirect of node.childrenForFieldName("redirect"))
    if (redirect !== null) judgeHereString(node, redirect, command, scope, found);
  if (
    isRunner(command, true) &&
    (argsTaint.fetched || argsTaint.decoded) &&
    name !== "source" &&
    name !== "."
  ) {
    found(
      judged(
        "download-and-run",
        node,
        `${argsTaint.fetched ? "fetched" : "decoded"} text → ${name}`,
      ),
    );
  } else if ((name === "source" || name === ".") && (argsTaint.fetched || argsTaint.decoded)) {
    found(judged("download-and-run", node, `fetched text → ${name}`));
  }
  if (argsTaint.secret && name !== undefined && SENDERS.has(name))
    found(judged("exfiltration", node, `secret → ${name}`));
  if (uploadsFile(command)) found(judged("exfiltration", node, `${name} uploads a local file`));
  else if ((name === "scp" || name === "rsync") && readsSecret(command) && isSender(command))
    found(judged("exfiltration", node, `${name} copies a credential to a host`));
  else if (
    readsEnvFile(command) ||
    ((name === "source" || name === ".") && ENV_FILE.test(` ${args[0] ?? ""}`))
  )
    found(judged("env-file-read", node, `${name} reads .env`));
  if (
    readsSecret(command) &&
    !argsTaint.secret &&
    name !== "env" &&
    name !== "printenv" &&
    name !== "set"
  )
    found(judged("credential-read", node, `${name} reads a credential`));
  // a fetch that names its output file: remembered, so running that file is seen
  if (isFetch(command)) {
    const output = args.findIndex((arg) => /^(?:-o|-O|--output|--output-document)$/.test(arg));
    if (output >= 0 && args[output + 1] !== undefined)
      scope.downloaded.add(baseName(args[output + 1]) ?? "");
    else if (name === "curl" && args.some((arg) => /^-\w*O/.test(arg))) {
      const url = args.find((arg) => /^https?:\/\//.test(arg));
      if (url !== undefined) scope.downloaded.add(baseName(url.replace(/[?#].*$/, "")) ?? "");
    }
  }
  const runs = RUNNERS.has(name) ? args.find((arg) => !/^-/.test(arg)) : (nameNode?.text ?? name);
  if (runs !== undefined && scope.downloaded.has(baseName(runs) ?? "") && name !== "chmod")
    found(judged("download-and-run", node, `a downloaded file → ${name}`));
  if (writesPersistence(command))
    found(judged("persistence", node, `${name} ${args.join(" ")}`.slice(0, 80)));
  // code handed to an interpreter inline is judged in its own language
  const inline = INLINE_CODE[name];
  if (inline !== undefined) {
    const at = args.findIndex((arg) => inline.flags.test(arg));
    const code = at >= 0 ? args[at + 1] : undefined;
    if (code !== undefined)
      for (const judgment of nested({ language: inline.language, text: code, node }))
        found(judgment);
    const encoded = args.findIndex((arg) => /^-(?:e|enc|encodedcommand)$/i.test(arg));
    if (
      (name === "pwsh" || name === "powershell") &&
      encoded >= 0 &&
      args[encoded + 1] !== undefined
    ) {
      const text = Buffer.from(args[encoded + 1] as string, "base64").toString("utf16le");
      for (const judgment of nested({ language: "powershell", text, node })) found(judgment);
    }
  }
}

/** `bash <<< "$(curl …)"`: a here-string or here-document is the program a shell reads. */
function judgeHereString(
  node: Node,
  redirect: Node,
  command: Resolved,
  scope: Scope,
  found: (judgment: CodeJudgment) => void,
): void {
  if (!/herestring|heredoc/.test(redirect.type) || !isRunner(command)) return;
  const taint = substitutionTaint(redirect, scope);
  if (taint.fetched || taint.decoded)
    found(
      judged(
        "download-and-run",
        node,
        `${taint.fetched ? "fetched" : "decoded"} text → ${command.name}`,
      ),
    );
}
