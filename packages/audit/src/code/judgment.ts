import type { Node } from "@vscode/tree-sitter-wasm";

/** The rules code analysis reports under (ids of `AUDIT_RULES`). */
export type CodeRule =
  | "download-and-run"
  | "vendor-installer"
  | "exfiltration"
  | "credential-read"
  | "env-file-read"
  | "persistence"
  | "obfuscated-command";

/** What the analysis of one fragment found: a rule, where (0-based, in the fragment), and why. */
export interface CodeJudgment {
  readonly rule: CodeRule;
  readonly row: number;
  readonly column: number;
  /** The flow it saw, in words: `curl → bash`. */
  readonly flow: string;
}

/**
 * A judgment at `node`'s start. Fetched code run from nothing but vendors' documented installers
 * (Homebrew, rustup, …, at the exact URL they publish) is `vendor-installer`, not `download-and-run`.
 */
export function judged(rule: CodeRule, node: Node, flow: string): CodeJudgment {
  const urls =
    rule === "download-and-run" ? (node.text.match(/https?:\/\/[^\s"')|;`]+/g) ?? []) : [];
  const vendor =
    urls.length > 0 && urls.every((url) => VENDOR_INSTALLERS.some((known) => known.test(url)));
  return {
    rule: vendor ? "vendor-installer" : rule,
    row: node.startPosition.row,
    column: node.startPosition.column,
    flow,
  };
}

/**
 * Installers vendors document as `curl … | sh`, at the URLs they publish them under: still code
 * fetched at run time, but the vendor's own, where a look-alike URL is an attack.
 */
const VENDOR_INSTALLERS: readonly RegExp[] = [
  /^https:\/\/raw\.githubusercontent\.com\/Homebrew\/install\/(?:HEAD|master)\/install\.sh$/,
  /^https:\/\/aka\.ms\/InstallAzureCLI(?:Deb|Rpm)?$/,
  /^https:\/\/sh\.rustup\.rs\/?$/,
  /^https:\/\/get\.docker\.com\/?$/,
  /^https:\/\/deb\.nodesource\.com\/setup_[\w.]+$/,
  /^https:\/\/install\.python-poetry\.org\/?$/,
  /^https:\/\/astral\.sh\/(?:uv|ruff)\/(?:[\d.]+\/)?install\.sh$/,
  /^https:\/\/bun\.sh\/install$/,
  /^https:\/\/deno\.land\/install\.sh$/,
  /^https:\/\/get\.pnpm\.io\/install\.sh$/,
  /^https:\/\/raw\.githubusercontent\.com\/nvm-sh\/nvm\/v[\d.]+\/install\.sh$/,
  /^https:\/\/cli\.github\.com\/packages\/githubcli-archive-keyring\.gpg$/,
  /^https:\/\/ollama\.com\/install\.sh$/,
  /^https:\/\/claude\.ai\/install\.sh$/,
];

/** Paths whose reading is a credential read: keys, cloud and registry credentials, wallets, agents' auth. */
export const SECRET_PATH: RegExp =
  /(?:^|[\s"'=/~(,@])(?:\.ssh(?:\/(?!.*\.pub\b)|$|[\s"')])|\.aws\/(?:credentials|config)|\.config\/gcloud|\.azure\/|\.kube\/config|\.docker\/config\.json|\.(?:npmrc|netrc|pypirc|git-credentials|pgpass)\b|wallet\.dat|\.electrum|keystore|\.gnupg\/|Library\/Keychains|login\.keychain|\.mozilla\/firefox|Google\/Chrome|\.config\/(?:google-chrome|chromium|BraveSoftware)|Login Data|Cookies\b|\.claude\/\.credentials|\.claude\.json|\.codex\/auth|\.gemini\/oauth|\/proc\/self\/environ)/;

/** A project's `.env` (not its example): secrets too, but read honestly by many skills, so only sending it is judged. */
export const ENV_FILE: RegExp = /(?:^|[\s"'=/@(,])\.env(?!\.(?:example|sample|template))\b/;

/** Paths whose writing makes something run again later: keys that let in, shell start-up, schedulers. */
export const PERSISTENCE_PATH: RegExp =
  /(?:\$PROFILE\b|\\CurrentVersion\\Run|\.ssh\/authorized_keys|\.(?:bashrc|bash_profile|bash_login|zshrc|zprofile|zshenv|profile|login)\b|\/etc\/(?:profile|bash\.bashrc|zshrc|rc\.local|cron|crontab|systemd|init\.d|ld\.so\.preload)|Library\/Launch(?:Agents|Daemons)|\.config\/(?:autostart|systemd\/user|fish\/config\.fish)|\/var\/spool\/cron)/;

/** Deepest nesting analysed; deeper code is left to the line rules. */
export const MAX_NESTING_DEPTH = 256;

/** How deeply `text`'s brackets nest (parentheses, braces, brackets), counted in one pass. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 40 || code === 123 || code === 91) {
      depth += 1;
      if (depth > deepest) deepest = depth;
    } else if ((code === 41 || code === 125 || code === 93) && depth > 0) depth -= 1;
  }
  return deepest;
}

/**
 * Visit `node` and every node below it of one of `types`, in document order: the grammar's own
 * search finds them, so nodes of no interest never cross into JavaScript.
 */
export function eachOfType(
  node: Node,
  types: readonly string[],
  visit: (node: Node) => void,
): void {
  if (types.includes(node.type)) visit(node);
  for (const inner of node.descendantsOfType([...types]))
    if (inner !== null && inner.id !== node.id) visit(inner);
}
