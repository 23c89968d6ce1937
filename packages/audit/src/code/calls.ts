import type { Node, Tree } from "@vscode/tree-sitter-wasm";
import {
  type CodeJudgment,
  ENV_FILE,
  eachOfType,
  judged,
  PERSISTENCE_PATH,
  SECRET_PATH,
} from "./judgment.js";
import type { CodeLanguage } from "./parsers.js";

/** A string a call hands to a shell (`os.system("…")`, `execSync("…")`), for the shell's analysis. */
export interface ShellString {
  readonly text: string;
  readonly node: Node;
}

/**
 * Judge a Python, JavaScript or PowerShell syntax tree by what flows where, as `judgeShell` does
 * for a shell: fetched or decoded text into `exec`/`eval`/`Function`/`Invoke-Expression` (in the
 * call's arguments, through a variable, or down a promise chain or a pipeline); a secret read (a
 * credential file, the whole environment) into a call that sends; writes that make something run
 * again later; and strings handed to a shell, which the shell's analysis reads.
 */
export function judgeCalls(
  language: Exclude<CodeLanguage, "bash">,
  tree: Tree,
  shell: (code: ShellString) => CodeJudgment[],
): CodeJudgment[] {
  const spec = SPECS[language];
  const judgments: CodeJudgment[] = [];
  const taint = new Map<string, Taint>();
  const found = (judgment: CodeJudgment) => {
    if (!judgments.some((one) => one.rule === judgment.rule && one.row === judgment.row))
      judgments.push(judgment);
  };
  const visit = (node: Node) => {
    // a function whose body fetches or decodes gives what it fetched: `exec(plugin())`
    if (spec.functions.includes(node.type)) {
      const name = node.childForFieldName("name")?.text;
      const body = node.childForFieldName("body");
      if (name !== undefined && body !== null) {
        const inside = taintOf(body, spec, taint);
        if (inside.fetched || inside.decoded || inside.secret) taint.set(name, inside);
      }
    }
    const assignment = spec.assignment(node);
    if (assignment !== undefined) {
      const value = taintOf(assignment.value, spec, taint);
      if (value.fetched || value.decoded || value.secret) taint.set(assignment.name, value);
    }
    if (spec.pipeline !== undefined && node.type === spec.pipeline)
      judgePipeline(node, spec, taint, found);
    if (!spec.calls.includes(node.type)) return;
    const callee = spec.callee(node).toLowerCase();
    const args = spec.args(node);
    const inArgs = args === null ? NONE : taintOf(args, spec, taint);
    if (spec.exec.test(callee) && (inArgs.fetched || inArgs.decoded))
      found(
        judged(
          "download-and-run",
          node,
          `${inArgs.fetched ? "fetched" : "decoded"} text → ${callee}`,
        ),
      );
    // `fetch(u).then(r => r.text()).then(eval)`: an exec function handed down a chain of a fetch
    if (args !== null && spec.execReference.test(args.text) && taintOf(node, spec, taint).fetched)
      found(judged("download-and-run", node, `fetched text → ${args.text}`));
    if (spec.send.test(callee) && inArgs.secret)
      found(judged("exfiltration", node, `secret → ${callee}`));
    if (
      spec.read.test(callee) &&
      args !== null &&
      SECRET_PATH.test(` ${literalText(args)}`) &&
      !spec.send.test(callee)
    )
      found(judged("credential-read", node, `${callee} reads a credential`));
    if (spec.write.test(callee) && args !== null && PERSISTENCE_PATH.test(literalText(args)))
      found(judged("persistence", node, `${callee} writes a start-up file`));
    if (spec.shell.test(callee) && args !== null)
      for (const text of strings(args, spec))
        for (const judgment of shell({ text, node })) found(judgment);
  };
  eachOfType(
    tree.rootNode,
    [
      ...new Set([
        ...spec.calls,
        ...spec.functions,
        ...spec.assignments,
        ...(spec.pipeline === undefined ? [] : [spec.pipeline]),
      ]),
    ],
    visit,
  );
  return judgments;
}

// --- internal ---

interface Taint {
  readonly fetched: boolean;
  readonly decoded: boolean;
  readonly secret: boolean;
}

const NONE: Taint = { fetched: false, decoded: false, secret: false };

/** What the analysis knows of one language: its call and assignment nodes, and the names that matter. */
interface CallSpec {
  readonly calls: readonly string[];
  readonly pipeline?: string | undefined;
  readonly callee: (node: Node) => string;
  readonly args: (node: Node) => Node | null;
  readonly assignment: (node: Node) => { readonly name: string; readonly value: Node } | undefined;
  /** The node types `assignment` reads. */
  readonly assignments: readonly string[];
  readonly variables: readonly string[];
  /** Function definitions (with `name` and `body` fields). */
  readonly functions: readonly string[];
  readonly strings: readonly string[];
  readonly fetch: RegExp;
  /** Text that fetches wherever it appears, for what the grammar does not make a call. */
  readonly fetchText?: RegExp | undefined;
  readonly decode: RegExp;
  readonly exec: RegExp;
  /** An exec function named (not called) in an argument. */
  readonly execReference: RegExp;
  readonly send: RegExp;
  readonly read: RegExp;
  /** Text that is the whole environment. */
  readonly environment: RegExp;
  readonly write: RegExp;
  readonly shell: RegExp;
}

const field = (name: string) => (node: Node) => node.childForFieldName(name);

const SPECS: { readonly [L in Exclude<CodeLanguage, "bash">]: CallSpec } = {
  python: {
    calls: ["call"],
    callee: (node) => node.childForFieldName("function")?.text ?? "",
    args: field("arguments"),
    assignment: (node) => {
      if (node.type !== "assignment") return undefined;
      const left = node.childForFieldName("left");
      const right = node.childForFieldName("right");
      return left?.type === "identifier" && right !== null
        ? { name: left.text, value: right }
        : undefined;
    },
    assignments: ["assignment"],
    variables: ["identifier"],
    functions: ["function_definition"],
    strings: ["string_content"],
    fetch:
      /(?:^|\.)(?:urlopen|urlretrieve|get|request|getresponse)$|^requests\.|^httpx\.|^aiohttp\.|^urllib3?\./,
    decode:
      /(?:b64decode|b32decode|b85decode|a85decode|unhexlify|fromhex|decompress|codecs\.decode|rot13)$/,
    exec: /^(?:exec|eval|compile|builtins\.exec|__import__\(['"]builtins['"]\)\.exec)$|\.exec$/,
    execReference: /^\(\s*(?:exec|eval)\s*\)$/,
    send: /(?:^|\.)(?:post|put|patch|send|sendall|sendto|urlopen|request|connect)$|^requests\.|^httpx\./,
    read: /^(?:open|io\.open|codecs\.open)$|\.(?:read_text|read_bytes|open)$/,
    environment: /\bos\.environ\b(?!\s*[[.]\s*(?:get\b|\[))|\bdict\(\s*os\.environ\s*\)/,
    write: /^(?:open|io\.open)$|\.(?:write_text|write_bytes)$/,
    shell:
      /^(?:os\.system|os\.popen|subprocess\.(?:run|call|check_call|check_output|popen|getoutput|getstatusoutput))$/,
  },
  javascript: {
    calls: ["call_expression", "new_expression"],
    callee: (node) =>
      (node.childForFieldName("function") ?? node.childForFieldName("constructor"))?.text ?? "",
    args: field("arguments"),
    assignment: (node) => {
      if (node.type === "variable_declarator") {
        const name = node.childForFieldName("name");
        const value = node.childForFieldName("value");
        return name?.type === "identifier" && value !== null
          ? { name: name.text, value }
          : undefined;
      }
      if (node.type !== "assignment_expression") return undefined;
      const left = node.childForFieldName("left");
      const right = node.childForFieldName("right");
      return left?.type === "identifier" && right !== null
        ? { name: left.text, value: right }
        : undefined;
    },
    assignments: ["variable_declarator", "assignment_expression"],
    variables: ["identifier"],
    functions: ["function_declaration"],
    strings: ["string_fragment", "template_string"],
    fetch:
      /^(?:fetch|axios(?:\.get)?|got|request|undici\.request)$|^(?:https?|http2)\.(?:get|request)$|\.(?:get|request)$/,
    decode: /^atob$|^buffer\.from$|\.tostring$/,
    exec: /^(?:eval|function|new function|vm\.runin\w+|vm\.script|window\.eval|globalthis\.eval)$/,
    execReference: /^\(\s*(?:eval|Function)\s*\)$/,
    send: /^(?:fetch|axios(?:\.(?:post|put))?|got(?:\.post)?)$|\.(?:post|put|write|send|end|request)$/,
    read: /(?:^|\.)(?:readfilesync|readfile|createreadstream)$/,
    environment: /\bprocess\.env\b(?!\s*[.[])/,
    write: /(?:^|\.)(?:writefilesync|appendfilesync|writefile|appendfile)$/,
    shell: /(?:^|\.)(?:execsync|exec|spawnsync|spawn|execfilesync)$/,
  },
  powershell: {
    calls: ["command", "invokation_expression"],
    pipeline: "pipeline_chain",
    callee: (node) => {
      if (node.type === "command") return node.childForFieldName("command_name")?.text ?? "";
      // `(New-Object Net.WebClient).DownloadString(…)`: everything before its argument list
      const list = node.namedChildren.find((child) => child?.type === "argument_list");
      return list === undefined || list === null
        ? node.text
        : node.text.slice(0, list.startIndex - node.startIndex);
    },
    args: (node) =>
      node.childForFieldName("command_elements") ??
      node.namedChildren.find((child) => child?.type === "argument_list") ??
      null,
    assignment: (node) => {
      if (node.type !== "assignment_expression") return undefined;
      const left = node.namedChildren[0];
      const value = node.childForFieldName("value");
      const name = left?.text.trim().toLowerCase();
      return name?.startsWith("$") && value !== null ? { name, value } : undefined;
    },
    assignments: ["assignment_expression"],
    variables: ["variable"],
    functions: ["function_statement"],
    strings: ["verbatim_string_characters", "expandable_string_literal", "string_literal"],
    fetch:
      /^(?:invoke-webrequest|iwr|invoke-restmethod|irm|curl|wget|start-bitstransfer)$|\.download(?:string|data|file)$|net\.webclient/,
    fetchText:
      /\.download(?:string|data|file)\s*\(|\b(?:invoke-webrequest|iwr|invoke-restmethod|irm)\b/i,
    decode: /frombase64string|\.getstring$|::utf8|::unicode|decompress/,
    exec: /^(?:invoke-expression|iex|invoke-command|icm|start-process|saps|&)$|scriptblock\]::create|\.invoke$/,
    execReference: /^$/,
    send: /^(?:invoke-webrequest|iwr|invoke-restmethod|irm|send-mailmessage)$|\.upload(?:string|data|file)$/,
    read: /^(?:get-content|gc|cat|type|\[io\.file\]::read\w*)$/,
    environment:
      /\bget-childitem\s+env:|\bgci\s+env:|\bls\s+env:|\[environment\]::getenvironmentvariables/i,
    write:
      /^(?:add-content|ac|set-content|sc|out-file|new-itemproperty|set-itemproperty|register-scheduledtask|schtasks)$/,
    shell: /^(?:cmd|cmd\.exe|bash|sh|wsl)$/,
  },
};

/** What `node` holds: a fetch, a decode, a secret read, or a variable given one of them. */
function taintOf(node: Node, spec: CallSpec, taint: ReadonlyMap<string, Taint>): Taint {
  let fetched = spec.fetchText?.test(node.text) === true;
  let decoded = false;
  let secret = spec.environment.test(node.text);
  eachOfType(node, [...spec.calls, ...spec.variables], (inner) => {
    if (spec.calls.includes(inner.type)) {
      const callee = spec.callee(inner).toLowerCase();
      const returned = taint.get(spec.callee(inner));
      fetched ||= spec.fetch.test(callee) || returned?.fetched === true;
      decoded ||= returned?.decoded === true;
      secret ||= returned?.secret === true;
      decoded ||= spec.decode.test(callee);
      const args = spec.args(inner);
      secret ||=
        spec.read.test(callee) &&
        args !== null &&
        (SECRET_PATH.test(` ${literalText(args)}`) || ENV_FILE.test(` ${literalText(args)}`));
    } else if (spec.variables.includes(inner.type)) {
      const known = taint.get(inner.text.trim().toLowerCase()) ?? taint.get(inner.text.trim());
      fetched ||= known?.fetched === true;
      decoded ||= known?.decoded === true;
      secret ||= known?.secret === true;
    }
  });
  return { fetched, decoded, secret };
}

/** PowerShell's `irm … | iex`: a fetch or decode in a stage before one that runs what it is given. */
function judgePipeline(
  node: Node,
  spec: CallSpec,
  taint: ReadonlyMap<string, Taint>,
  found: (judgment: CodeJudgment) => void,
): void {
  let source: string | undefined;
  for (const stage of node.namedChildren) {
    if (stage === null || !spec.calls.includes(stage.type)) continue;
    const callee = spec.callee(stage).toLowerCase();
    if (source !== undefined && spec.exec.test(callee)) {
      found(judged("download-and-run", node, `${source} → ${callee}`));
      return;
    }
    const own = taintOf(stage, spec, taint);
    if (own.fetched || own.decoded) source ??= callee;
  }
}

/** The literal text inside `node`'s strings, joined: what a path argument says. */
function literalText(node: Node): string {
  return node.text.replace(/["'`]/g, "");
}

function strings(node: Node, spec: CallSpec): string[] {
  const found: string[] = [];
  eachOfType(node, spec.strings, (inner) => {
    if (spec.strings.includes(inner.type)) found.push(inner.text.replace(/^["'`]|["'`]$/g, ""));
  });
  return found;
}
