import { join } from "node:path";
import { createDiagnostic, type Diagnostic, type TreeFileRead } from "@skillshelf/core";
import { filesBelow, handedOver, IN_GIT, notRegular, readFile, SNIFF_BYTES } from "./_files.js";
import { keywordScanner } from "./_keywords.js";
import { LineIndex } from "./_lines.js";
import { analyzeFragment } from "./code/analyze.js";
import { type CodeFragment, markdownFragments, scriptLanguage } from "./code/fragments.js";
import type { CodeParsers } from "./code/parsers.js";
import { AUDIT_RULES, type AuditRule, type FileFacts, SEVERITIES, type Severity } from "./rules.js";

/** One thing a rule found: where, how bad, and what to do. */
export interface AuditFinding {
  readonly rule: string;
  readonly severity: Severity;
  /** The file, relative to the audited folder, `/`-separated. */
  readonly file: string;
  /** 1-based, for a rule that reads lines. */
  readonly line?: number | undefined;
  readonly column?: number | undefined;
  /** The line, shortened, its invisible characters written as `\u{…}`. */
  readonly excerpt?: string | undefined;
  readonly hint: string;
  /**
   * For a finding in code (a Markdown code block or span, a script): `syntax-tree` when the
   * syntax analysis found it, `line-fallback` when the code was read line by line (it did not
   * parse, or was not parsed).
   */
  readonly parse?: "syntax-tree" | "line-fallback" | undefined;
  /** What the syntax analysis saw flow, in words (`curl → bash`). */
  readonly flow?: string | undefined;
}

/** What an audit of one folder read and found. */
export interface AuditReport {
  readonly root: string;
  readonly files: number;
  readonly bytes: number;
  /** In file order, then line order. */
  readonly findings: readonly AuditFinding[];
  /** Files it could not read as they are (too large, not a regular file, unreadable). */
  readonly diagnostics: readonly Diagnostic[];
}

/** The code of a report not yet read as syntax trees (`analyzeCode` reads it), out of its JSON. */
const PENDING = Symbol("pending code");

/** A report with the code `analyzeCode` has still to read. */
type WithPending = AuditReport & { readonly [PENDING]?: readonly PendingCode[] };

interface PendingCode extends CodeFragment {
  readonly file: string;
}

/** Options of `auditTree`. */
export interface AuditOptions {
  /** Largest file read; a larger one is reported (`audit_file_too_large`), not read. Default 10 MiB. */
  readonly maxFileBytes?: number | undefined;
}

const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;
const MAX_EXCERPT = 160;

/**
 * Read every file below `root` (never following a link, never running anything) against every
 * rule of `AUDIT_RULES`: line rules over text files, frontmatter rules over each `SKILL.md`'s
 * frontmatter, file rules over each file's first bytes and mode. A file past `maxFileBytes`, a
 * FIFO, socket or device, or one that cannot be read is a diagnostic naming it; nothing throws
 * for what is on disk.
 */
export function auditTree(root: string, options: AuditOptions = {}): AuditReport {
  const audit = newAudit(options);
  for (const { path, special } of filesBelow(root, audit.diagnostics)) {
    // `/`-separated names from the listing: join reads them on every platform
    const absolute = join(root, path);
    if (special) audit.diagnostics.push(notRegular(absolute));
    else audit.file({ path: absolute, relative: path, executable: false, bytes: undefined });
  }
  return audit.report(root);
}

/**
 * An audit of a tree fed file by file by a reader that walks it anyway (`digestTree`'s or
 * `copyTree`'s `read`, in the order `auditTree` walks): the report `auditTree` gives of that tree,
 * each file read once for both. A file handed over without its bytes is read here; one inside a
 * `.git` folder is left out, as `auditTree` leaves it out.
 */
export interface AuditSession {
  file(file: TreeFileRead): void;
  /** The report of the tree at `root`, whose every file was handed to `file`. */
  report(root: string): AuditReport;
}

/** Start an `AuditSession`. */
export function startAudit(options: AuditOptions = {}): AuditSession {
  return newAudit(options);
}

/** The highest severity among `findings`, or `undefined` for none. */
export function highestSeverity(findings: readonly AuditFinding[]): Severity | undefined {
  let highest: number | undefined;
  for (const finding of findings) {
    const rank = SEVERITIES.indexOf(finding.severity);
    if (highest === undefined || rank > highest) highest = rank;
  }
  return highest === undefined ? undefined : SEVERITIES[highest];
}

/** True when `severity` is `threshold` or worse. */
export function atOrAbove(severity: Severity, threshold: Severity): boolean {
  return SEVERITIES.indexOf(severity) >= SEVERITIES.indexOf(threshold);
}

/**
 * The report with its code read as syntax trees: each code block or script that the line pass
 * set aside is parsed (the grammars its languages need loaded now, once per `parsers`), its
 * findings of the code rules replaced by what the analysis finds (`parse: "syntax-tree"`). Code
 * that does not parse keeps the line rules' findings (`parse: "line-fallback"`), and a diagnostic
 * names it. A report with no such code comes back as it is, and nothing is loaded.
 */
export async function analyzeCode(report: AuditReport, parsers: CodeParsers): Promise<AuditReport> {
  const pending = (report as WithPending)[PENDING] ?? [];
  if (pending.length === 0) return report;
  await parsers.load(pending.map((fragment) => fragment.language));
  let findings = [...report.findings];
  const diagnostics = [...report.diagnostics];
  for (const fragment of pending) {
    let analysis = analyzeFragment(parsers, fragment);
    if (analysis.missing.length > 0) {
      await parsers.load(analysis.missing);
      analysis = analyzeFragment(parsers, fragment);
    }
    if (analysis.judgments === undefined) {
      diagnostics.push(
        createDiagnostic(
          "info",
          "audit_code_unparsed",
          `${fragment.file}:${fragment.line}: the ${fragment.language} code there ${analysis.reason}; it was read line by line`,
          { path: fragment.file, details: { line: fragment.line, language: fragment.language } },
        ),
      );
      continue;
    }
    const inside = (finding: AuditFinding) =>
      finding.file === fragment.file &&
      finding.parse === "line-fallback" &&
      (finding.line ?? 0) >= fragment.line &&
      (finding.line ?? 0) <= fragment.endLine;
    // a tree with errors is read both ways; a clean one replaces the line rules' reading
    if (analysis.clean) findings = findings.filter((finding) => !inside(finding));
    for (const judgment of analysis.judgments) {
      const rule = RULE_BY_ID.get(judgment.rule);
      if (rule === undefined) continue;
      const line = fragment.line + judgment.row;
      if (
        findings.some(
          (one) => one.file === fragment.file && one.rule === rule.id && one.line === line,
        )
      )
        continue;
      findings.push({
        ...finding(
          rule,
          fragment.file,
          line,
          (judgment.row === 0 ? fragment.column : 1) + judgment.column,
          judgment.excerpt,
        ),
        parse: "syntax-tree",
        flow: judgment.flow,
      });
    }
  }
  findings.sort(byPlace);
  return { ...report, findings, diagnostics };
}

// --- internal ---

const RULE_BY_ID = new Map(AUDIT_RULES.map((rule) => [rule.id, rule]));
const CODE_RULES = new Set(
  AUDIT_RULES.filter(
    (rule) => rule.match.on === "code" || (rule.match.on === "lines" && rule.match.code === true),
  ).map((rule) => rule.id),
);

function byPlace(a: AuditFinding, b: AuditFinding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
}

/** An `AuditSession` whose diagnostics `auditTree` adds to as it lists the tree. */
function newAudit(options: AuditOptions): AuditSession & { readonly diagnostics: Diagnostic[] } {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const findings: AuditFinding[] = [];
  const diagnostics: Diagnostic[] = [];
  const pending: PendingCode[] = [];
  let files = 0;
  let bytes = 0;
  return {
    diagnostics,
    file({ path, relative, executable, bytes: content }) {
      if (IN_GIT.test(relative)) return;
      const read =
        content === undefined
          ? readFile(path, maxFileBytes, diagnostics)
          : handedOver(path, content, executable, maxFileBytes, diagnostics);
      if (read === undefined) return;
      files += 1;
      bytes += read.content.length;
      findings.push(
        ...(read.whole
          ? fileFindings(relative, read.content, read.executable, pending)
          : headFindings({ path: relative, head: read.content, executable: read.executable })),
      );
    },
    report: (root) =>
      Object.defineProperty({ root, files, bytes, findings, diagnostics }, PENDING, {
        value: pending,
        enumerable: false,
      }),
  };
}

const LINE_RULES = AUDIT_RULES.filter((rule) => rule.match.on === "lines");
const FRONTMATTER_RULES = AUDIT_RULES.filter((rule) => rule.match.on === "frontmatter");
const FILE_RULES = AUDIT_RULES.filter((rule) => rule.match.on === "file");
// each line rule's bit (one 32-bit mask holds them all); a rule with no keywords is always run
if (LINE_RULES.length > 25) throw new Error("audit: more line rules than a keyword mask holds");
const RULE_BIT = new Map(LINE_RULES.map((rule, index) => [rule, 1 << index]));
const ALWAYS = LINE_RULES.filter(
  (rule) => rule.match.on !== "lines" || rule.match.keywords === undefined,
).reduce((bits, rule) => bits | (RULE_BIT.get(rule) ?? 0), 0);
/**
 * Words the code rules need, by group: code is parsed only when it holds a source (a fetch or a
 * decoder) with a sink (something that runs text) or the environment (which it could send), a
 * secret, a start-up file, or a command name built to hide (`hidden`, then `HIDDEN_NAME`). Most
 * code in skills holds none of these.
 */
const CODE_WORDS = {
  source: [
    ...["curl", "wget", "aria2c", "ncat", "netcat", "socat", "telnet", "/dev/tcp", "/dev/udp"],
    ...["urlopen", "urlretrieve", "urllib", "requests.", "httpx", "aiohttp", "fetch(", "axios"],
    ...["invoke-webrequest", "invoke-restmethod", "iwr http", "irm http", "downloadstring"],
    ...["downloadfile", "downloaddata", "webclient", "https.get", "http.get", "base64", "base32"],
    ...["b64decode", "atob(", "xxd", "fromhex", "unhexlify", "gunzip", "zcat", "uudecode"],
    ...["encodedcommand", "-enc "],
  ],
  sink: [
    ...["| sh", "|sh", "bash", "zsh", "sh -", "sh <", "eval", "exec", "source ", "iex"],
    ...["invoke-expression", "python", "node ", "node -", "perl", "ruby", "php", "function("],
    ...["vm.run", "spawn", "system(", "popen", "chmod", "./"],
  ],
  // what hides a command's name: hex escapes, a variable assembled, a letter escaped
  hidden: [
    "\\x",
    "=${",
    "=$(",
    "$'",
    ..."abcdefghijklmnopqrstuvwxyz".split("").map((letter) => `\\${letter}`),
  ],
  secret: [
    ...[".ssh", ".aws", "keychain", "security find", "security dump", ".config/gcloud", ".azure"],
    ...[".kube", ".docker", "npmrc", "netrc", "pypirc", "git-credentials", "wallet", "electrum"],
    ...["keystore", "gnupg", "google-chrome", "chromium", "bravesoftware", ".mozilla"],
    ...["login data"],
  ],
  // the environment and a project's .env: read everywhere, a finding only when sent somewhere
  environment: [
    ...[".env", "printenv", "env |", "os.environ", "process.env", "childitem env:", "gci env:"],
    ...["getenvironmentvariables"],
  ],
  startup: [
    ...["authorized_keys", "bashrc", "zshrc", "bash_profile", "zprofile", ".profile", "$profile"],
    ...["crontab", "launchctl", "launchagents", "launchdaemons", "systemctl", "autostart"],
    ...["currentversion", "schtasks", "scheduledtask", "rc.local"],
  ],
} as const;
// their bits, above the line rules' (at most 26 of them)
const CODE_BITS = {
  source: 1 << 25,
  sink: 1 << 26,
  secret: 1 << 27,
  environment: 1 << 28,
  startup: 1 << 29,
  hidden: 1 << 30,
} as const;

// every line rule's keywords, and the code words, in one automaton compiled at the first scan
const KEYWORDS = keywordScanner([
  ...LINE_RULES.flatMap((rule) =>
    rule.match.on === "lines"
      ? (rule.match.keywords ?? []).map((word) => [word, RULE_BIT.get(rule) ?? 0] as const)
      : [],
  ),
  ...(Object.keys(CODE_WORDS) as (keyof typeof CODE_WORDS)[]).flatMap((group) =>
    CODE_WORDS[group].map((word) => [word, CODE_BITS[group]] as const),
  ),
]);
// what hides a command's name without any of the words: escapes, a variable where a name goes
const HIDDEN_NAME = /\\x[0-9a-f]{2}|[a-z]\\[a-z]|(?:^|[;&|(])\s*["']?\$[{'(]?\w/im;

/** What the file rules find in a file's first bytes and mode. */
function headFindings(facts: FileFacts): AuditFinding[] {
  return FILE_RULES.filter((rule) => rule.match.on === "file" && rule.match.test(facts)).map(
    (rule) => finding(rule, facts.path),
  );
}

function fileFindings(
  path: string,
  content: Buffer,
  executable: boolean,
  pending: PendingCode[],
): AuditFinding[] {
  const facts = { path, head: content.subarray(0, SNIFF_BYTES), executable };
  const found = headFindings(facts);
  if (facts.head.includes(0)) return found;
  // one pass over the bytes finds the keywords the file holds; a rule whose keywords it lacks
  // cannot match any of its lines, so its pattern is not run, and a file no rule can match is
  // not even decoded (unless it is a SKILL.md, whose frontmatter has rules of its own, or code)
  const present = KEYWORDS.scan(content) | ALWAYS;
  const lineRules = LINE_RULES.filter((rule) => ((RULE_BIT.get(rule) ?? 0) & present) !== 0);
  const isSkill = /(?:^|\/)SKILL\.md$/.test(path);
  const isMarkdown = /\.(?:md|markdown|mdx)$/i.test(path);
  const script = isMarkdown
    ? undefined
    : scriptLanguage(path, facts.head.toString("latin1", 0, 128));
  const mayHoldCode = isMarkdown || script !== undefined;
  if (lineRules.length === 0 && !isSkill && !mayHoldCode) return found;
  const text = content.toString("utf8");
  const lines = new LineIndex(text);
  // a script is one fragment; a Markdown file's blocks and spans each are judged on their own
  const code =
    script !== undefined
      ? worthBits(present) || ((present & CODE_BITS.hidden) !== 0 && HIDDEN_NAME.test(text))
        ? [{ language: script, text, line: 1, column: 1, endLine: lines.count }]
        : []
      : isMarkdown && (worthBits(present) || (present & CODE_BITS.hidden) !== 0)
        ? markdownFragments(text.split("\n")).filter((fragment) => worthParsing(fragment.text))
        : [];
  for (const fragment of code) pending.push({ ...fragment, file: path });
  const inCode = (line: number) =>
    code.some((fragment) => line >= fragment.line && line <= fragment.endLine);
  // a command continued with `\` onto the next line is read as one line (same offsets)
  const scanned = text.includes("\\\n") ? text.replaceAll("\\\n", "  ") : text;
  const frontmatterEnd = isSkill ? lines.frontmatterEnd() : 0;
  // lines as they are read: a continued command is one line, found at its first
  const logical = scanned === text ? lines : new LineIndex(scanned);
  const report = (rule: AuditRule, from: number, to: number) => {
    const { pattern, accept } = rule.match as {
      pattern: RegExp;
      accept?: (line: string, match: RegExpExecArray) => boolean;
    };
    for (const line of candidateLines(rule, scanned, logical, from, to)) {
      const start = logical.start(line);
      const lineText = scanned.slice(start, logical.end(line));
      const match = pattern.exec(lineText);
      if (match === null || (accept !== undefined && !accept(lineText, match))) continue;
      const physical = lines.lineOf(start);
      const place = finding(rule, path, physical + 1, match.index + 1, lineText);
      found.push(
        CODE_RULES.has(rule.id) && inCode(physical + 1)
          ? { ...place, parse: "line-fallback" }
          : place,
      );
    }
  };
  for (const rule of lineRules) report(rule, 0, logical.count);
  if (frontmatterEnd > 0) for (const rule of FRONTMATTER_RULES) report(rule, 1, frontmatterEnd);
  found.sort(byPlace);
  return found;
}

/**
 * The lines from `from` to `to` (exclusive) a rule need read: those holding one of its keywords,
 * found by one case-insensitive search of the text (a keyword is a fast literal to look for,
 * where a rule's whole pattern is slow to try at every offset); every line for a rule without
 * text keywords.
 */
function candidateLines(
  rule: AuditRule,
  text: string,
  lines: LineIndex,
  from: number,
  to: number,
): Iterable<number> {
  const words = rule.match.on === "lines" ? rule.match.keywords : undefined;
  if (words === undefined || words.some((word) => typeof word !== "string"))
    return Array.from({ length: Math.max(0, to - from) }, (_, at) => from + at);
  // made for each file: a global expression keeps its place between searches
  const search = new RegExp(
    (words as string[]).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"),
    "gi",
  );
  const found: number[] = [];
  search.lastIndex = lines.start(from);
  const end = lines.start(to);
  for (let hit = search.exec(text); hit !== null && hit.index < end; hit = search.exec(text)) {
    const line = lines.lineOf(hit.index);
    found.push(line);
    search.lastIndex = lines.end(line) + 1;
  }
  return found;
}

/** Whether code holds what a code rule needs (see `CODE_WORDS`, `HIDDEN_NAME`). */
function worthParsing(code: string): boolean {
  const bits = KEYWORDS.scan(Buffer.from(code));
  return worthBits(bits) || ((bits & CODE_BITS.hidden) !== 0 && HIDDEN_NAME.test(code));
}

/**
 * Whether a keyword scan's bits hold a source and something that runs or is sent (the
 * environment), a secret, or a start-up file.
 */
function worthBits(bits: number): boolean {
  const has = (bit: number) => (bits & bit) !== 0;
  return (
    (has(CODE_BITS.source) && (has(CODE_BITS.sink) || has(CODE_BITS.environment))) ||
    has(CODE_BITS.secret) ||
    has(CODE_BITS.startup)
  );
}

function finding(
  rule: AuditRule,
  file: string,
  line?: number,
  column?: number,
  text?: string,
): AuditFinding {
  return {
    rule: rule.id,
    severity: rule.severity,
    file,
    ...(line === undefined ? {} : { line, column, excerpt: excerpt(text ?? "") }),
    hint: rule.remedy,
  };
}

/** The line shortened, with every invisible or control character written out. */
function excerpt(line: string): string {
  const shown = line.trim().replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it writes out
    /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]|[\u{E0000}-\u{E007F}]/gu,
    (character) => `\\u{${(character.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`,
  );
  return shown.length > MAX_EXCERPT ? `${shown.slice(0, MAX_EXCERPT)}…` : shown;
}
