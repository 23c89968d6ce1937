import { closeSync, type Dirent, lstatSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import { type Environment, openRegularFile } from "@skillshelf/core";
import { SESSION_LOG_FORMATS, type SessionLogFormat } from "./formats.js";

/** One skill an agent's session log says was invoked. */
export interface SkillInvocation {
  readonly agent: string;
  /** The skill's own name (for `plugin:skill`, the part after the colon). */
  readonly skill: string;
  /** The plugin it was namespaced under (`plugin:skill`), when it was. */
  readonly plugin?: string | undefined;
  /** `YYYY-MM-DD`, UTC: the line's own timestamp, else its file's last change. */
  readonly day: string;
}

/** What reading the session logs found. */
export interface SessionLogRead {
  readonly invocations: readonly SkillInvocation[];
  /** The log files read. */
  readonly files: number;
  /** Lines that looked like an invocation (held the marker) but did not parse as one. */
  readonly skipped: number;
}

/** A line of a log past this length is skipped unread (no invocation line comes near it). */
export const MAX_LINE_BYTES: number = 1024 * 1024;

/**
 * The skill invocations in the agents' session logs on this machine (`agents`: only theirs),
 * from `since` (`YYYY-MM-DD`) on: files last changed before that day are not opened; each is read
 * a chunk at a time. Nothing is written or sent; a folder or file that is a symlink is not followed.
 */
export function readSessionLogs(
  environment: Pick<Environment, "home" | "env">,
  options: { readonly since?: string | undefined; readonly agents?: readonly string[] } = {},
): SessionLogRead {
  const since = options.since ?? "";
  const invocations: SkillInvocation[] = [];
  let files = 0;
  let skipped = 0;
  for (const format of SESSION_LOG_FORMATS) {
    if (options.agents !== undefined && !options.agents.includes(format.agent)) continue;
    for (const file of logFiles(format.folder(environment), format.fileSuffix, since)) {
      const read = eachLine(file.path, format.marker, (line) => {
        const found = lineInvocations(format, line, file.day);
        if (found === undefined) skipped += 1;
        else invocations.push(...found.filter((invocation) => invocation.day >= since));
      });
      if (read) files += 1;
    }
  }
  return { invocations, files, skipped };
}

// --- internal ---

/** The invocations one log line records, or `undefined` when it records none (it is skipped). */
function lineInvocations(
  format: SessionLogFormat,
  line: string,
  fallbackDay: string,
): SkillInvocation[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const names = format.invoked(value);
  if (names.length === 0) return undefined;
  const day = dayOf((value as { timestamp?: unknown }).timestamp) ?? fallbackDay;
  return names.map((name) => ({ agent: format.agent, day, ...splitName(name) }));
}

/**
 * Hand each line of the regular file at `path` (never through a link) holding `marker` to
 * `line`, reading a chunk at a time, so a log of gigabytes costs no more memory than its longest
 * line, and a line without the marker is never decoded; a line past `MAX_LINE_BYTES` is dropped.
 * False when the file cannot be opened.
 */
function eachLine(path: string, marker: string, line: (text: string) => void): boolean {
  const wanted = Buffer.from(marker, "utf8");
  const hand = (bytes: Buffer) => {
    if (bytes.includes(wanted)) line(bytes.toString("utf8"));
  };
  let opened: ReturnType<typeof openRegularFile>;
  try {
    opened = openRegularFile(path, { noFollow: true });
  } catch {
    return false;
  }
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  try {
    for (let read = readSync(opened.fd, chunk); read > 0; read = readSync(opened.fd, chunk)) {
      let start = 0;
      for (
        let end = chunk.indexOf(10, start);
        end >= 0 && end < read;
        end = chunk.indexOf(10, start)
      ) {
        if (pendingBytes + end - start <= MAX_LINE_BYTES)
          hand(
            pending.length === 0
              ? chunk.subarray(start, end)
              : Buffer.concat([...pending, chunk.subarray(start, end)]),
          );
        pending = [];
        pendingBytes = 0;
        start = end + 1;
      }
      if (pendingBytes + read - start <= MAX_LINE_BYTES) {
        // kept as a copy: the chunk is read into again
        pending.push(Buffer.from(chunk.subarray(start, read)));
        pendingBytes += read - start;
      } else pendingBytes = MAX_LINE_BYTES + 1;
    }
    if (pendingBytes > 0 && pendingBytes <= MAX_LINE_BYTES) hand(Buffer.concat(pending));
  } catch {
    // a read that fails ends this file: what was read counts
  } finally {
    closeSync(opened.fd);
  }
  return true;
}

const CHUNK_BYTES = 1024 * 1024;

/** `plugin:skill` into its parts; a name without a colon is the skill's own. */
function splitName(name: string): { skill: string; plugin?: string } {
  const colon = name.indexOf(":");
  return colon <= 0 || colon === name.length - 1
    ? { skill: name }
    : { skill: name.slice(colon + 1), plugin: name.slice(0, colon) };
}

function dayOf(timestamp: unknown): string | undefined {
  if (typeof timestamp !== "string" || !/^\d{4}-\d{2}-\d{2}T/.test(timestamp)) return undefined;
  return timestamp.slice(0, 10);
}

/** The log files below `folder` (plain folders only) last changed on `since` or later. */
function logFiles(
  folder: string,
  suffix: string,
  since: string,
): { readonly path: string; readonly day: string }[] {
  const found: { path: string; day: string }[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < MAX_DEPTH) walk(path, depth + 1);
      else if (entry.isFile() && entry.name.endsWith(suffix)) {
        const day = lstatSync(path).mtime.toISOString().slice(0, 10);
        if (day >= since) found.push({ path, day });
      }
    }
  };
  walk(folder, 0);
  return found.sort((a, b) => (a.path < b.path ? -1 : 1));
}

// Codex nests its sessions by year, month and day; no agent goes deeper
const MAX_DEPTH = 6;
