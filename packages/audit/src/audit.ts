import { closeSync, constants, fstatSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import { createDiagnostic, type Diagnostic, errnoCode, type TreeFileRead } from "@skillshelf/core";
import { keywordScanner } from "./_keywords.js";
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

/** Options of `auditTree`. */
export interface AuditOptions {
  /** Largest file read; a larger one is reported (`audit_file_too_large`), not read. Default 10 MiB. */
  readonly maxFileBytes?: number | undefined;
}

const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;
// a file whose first bytes hold a NUL is binary: only file rules look at it
const SNIFF_BYTES = 8192;
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

// --- internal ---

/** An `AuditSession` whose diagnostics `auditTree` adds to as it lists the tree. */
function newAudit(options: AuditOptions): AuditSession & { readonly diagnostics: Diagnostic[] } {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const findings: AuditFinding[] = [];
  const diagnostics: Diagnostic[] = [];
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
          ? fileFindings(relative, read.content, read.executable)
          : headFindings({ path: relative, head: read.content, executable: read.executable })),
      );
    },
    report: (root) => ({ root, files, bytes, findings, diagnostics }),
  };
}

const LINE_RULES = AUDIT_RULES.filter((rule) => rule.match.on === "lines");
const FRONTMATTER_RULES = AUDIT_RULES.filter((rule) => rule.match.on === "frontmatter");
const FILE_RULES = AUDIT_RULES.filter((rule) => rule.match.on === "file");
// each line rule's bit (one 32-bit mask holds them all); a rule with no keywords is always run
if (LINE_RULES.length > 31) throw new Error("audit: more line rules than a keyword mask holds");
const RULE_BIT = new Map(LINE_RULES.map((rule, index) => [rule, 1 << index]));
const ALWAYS = LINE_RULES.filter(
  (rule) => rule.match.on !== "lines" || rule.match.keywords === undefined,
).reduce((bits, rule) => bits | (RULE_BIT.get(rule) ?? 0), 0);
// every line rule's keywords in one automaton, compiled at the first scan
const KEYWORDS = keywordScanner(
  LINE_RULES.flatMap((rule) =>
    rule.match.on === "lines"
      ? (rule.match.keywords ?? []).map((word) => [word, RULE_BIT.get(rule) ?? 0] as const)
      : [],
  ),
);

/** What the file rules find in a file's first bytes and mode. */
function headFindings(facts: FileFacts): AuditFinding[] {
  return FILE_RULES.filter((rule) => rule.match.on === "file" && rule.match.test(facts)).map(
    (rule) => finding(rule, facts.path),
  );
}

function fileFindings(path: string, content: Buffer, executable: boolean): AuditFinding[] {
  const facts = { path, head: content.subarray(0, SNIFF_BYTES), executable };
  const found = headFindings(facts);
  if (facts.head.includes(0)) return found;
  // one pass over the bytes finds the keywords the file holds; a rule whose keywords it lacks
  // cannot match any of its lines, so its pattern is not run, and a file no rule can match is
  // not even decoded (unless it is a SKILL.md, whose frontmatter has rules of its own)
  const present = KEYWORDS.scan(content) | ALWAYS;
  const lineRules = LINE_RULES.filter((rule) => ((RULE_BIT.get(rule) ?? 0) & present) !== 0);
  const isSkill = /(?:^|\/)SKILL\.md$/.test(path);
  if (lineRules.length === 0 && !isSkill) return found;
  const text = content.toString("utf8");
  const lines = text.split("\n");
  const frontmatterEnd = isSkill ? frontmatterLines(lines) : 0;
  lines.forEach((line, at) => {
    const rules = at > 0 && at < frontmatterEnd ? [...lineRules, ...FRONTMATTER_RULES] : lineRules;
    for (const rule of rules) {
      const match = (rule.match as { readonly pattern: RegExp }).pattern.exec(line);
      if (match !== null) found.push(finding(rule, path, at + 1, match.index + 1, line));
    }
  });
  return found;
}

/** How many lines open the file as its frontmatter (the closing `---` line's index), or 0. */
function frontmatterLines(lines: readonly string[]): number {
  if (lines[0]?.trim() !== "---") return 0;
  const end = lines.findIndex((line, at) => at > 0 && line.trim() === "---");
  return end === -1 ? 0 : end;
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

/**
 * Every file below `root` (links and `.git` left out), `/`-separated, and whether it is a FIFO,
 * socket or device rather than a regular file, as the folder listing says.
 */
function filesBelow(
  root: string,
  diagnostics: Diagnostic[],
  prefix = "",
): { readonly path: string; readonly special: boolean }[] {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(join(root, prefix), { withFileTypes: true });
  } catch (error) {
    diagnostics.push(unreadable(join(root, prefix), error));
    return [];
  }
  return entries
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => {
      const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isSymbolicLink() || entry.name === ".git") return [];
      return entry.isDirectory()
        ? filesBelow(root, diagnostics, path)
        : [{ path, special: !entry.isFile() }];
    });
}

/**
 * A file's bytes and executable bit, or `undefined` (with a diagnostic) when it is not read. Of a
 * file past `maxBytes` only the first bytes are read (`whole: false`), for the file rules, with a
 * diagnostic saying the rest was not.
 */
function readFile(
  path: string,
  maxBytes: number,
  diagnostics: Diagnostic[],
): { content: Buffer; executable: boolean; whole: boolean } | undefined {
  let descriptor: number | undefined;
  try {
    // never blocks on a FIFO swapped in after the check, never follows a link
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const opened = fstatSync(descriptor);
    if (!opened.isFile()) {
      diagnostics.push(notRegular(path));
      return undefined;
    }
    const whole = withinLimit(path, opened.size, maxBytes, diagnostics);
    // not zeroed: only the bytes read are kept (`subarray(0, offset)` below)
    const content = Buffer.allocUnsafe(whole ? opened.size : SNIFF_BYTES);
    let offset = 0;
    while (offset < content.length) {
      const read = readSync(descriptor, content, offset, content.length - offset, offset);
      if (read === 0) break;
      offset += read;
    }
    return { content: content.subarray(0, offset), executable: (opened.mode & 0o111) !== 0, whole };
  } catch (error) {
    diagnostics.push(unreadable(path, error));
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

// a `.git` entry at any depth, as `filesBelow` leaves it out
const IN_GIT = /(?:^|\/)\.git(?:\/|$)/;

/** A file's bytes another reader handed over, cut to their head past `maxBytes` as `readFile` cuts them. */
function handedOver(
  path: string,
  content: Buffer,
  executable: boolean,
  maxBytes: number,
  diagnostics: Diagnostic[],
): { content: Buffer; executable: boolean; whole: boolean } {
  const whole = withinLimit(path, content.length, maxBytes, diagnostics);
  return { content: whole ? content : content.subarray(0, SNIFF_BYTES), executable, whole };
}

/** Whether a file of `size` bytes is read whole; past `maxBytes`, a diagnostic says only its head is. */
function withinLimit(
  path: string,
  size: number,
  maxBytes: number,
  diagnostics: Diagnostic[],
): boolean {
  if (size <= maxBytes) return true;
  diagnostics.push(
    createDiagnostic(
      "warning",
      "audit_file_too_large",
      `${path} is ${size} bytes, over the ${maxBytes}-byte limit; only its first ${SNIFF_BYTES} bytes were read`,
      { path },
    ),
  );
  return false;
}

function notRegular(path: string): Diagnostic {
  return createDiagnostic(
    "warning",
    "audit_file_special",
    `${path} is not a regular file; it was not read`,
    { path },
  );
}

function unreadable(path: string, error: unknown): Diagnostic {
  return createDiagnostic(
    "warning",
    "audit_file_unreadable",
    `${path} could not be read (${errnoCode(error) ?? String(error)})`,
    { path },
  );
}
