import { closeSync, constants, lstatSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  type Environment,
  readRegularFile,
  SkillshelfError,
  userLibraryDir,
} from "@skillshelf/core";

/**
 * What was served of one skill on one day, as one line of the usage log: each process that
 * counts appends one line per skill it served when it writes its counts down.
 */
export interface UsageRow {
  /** `YYYY-MM-DD`, UTC. */
  readonly day: string;
  /** The skill as it was addressed (`refunds`, `<upstream>/<path>` for a relayed one). */
  readonly skill: string;
  /** `skills/get` requests. */
  readonly gets: number;
  /** `resources/read` requests of its files. */
  readonly reads: number;
}

/** What the usage log says of one skill, over the days asked. */
export interface SkillUsage {
  readonly skill: string;
  readonly gets: number;
  readonly reads: number;
  readonly firstDay: string;
  readonly lastDay: string;
}

/**
 * Where usage is counted: `usage.jsonl` in the user's library, one JSON `UsageRow` per line. It
 * exists only while counting is enabled (`enableUsage`); nothing in it is ever sent anywhere.
 */
export function usageFilePath(environment: Environment): string {
  return join(userLibraryDir(environment), "usage.jsonl");
}

/** Whether usage is counted: the usage file is there, a regular file. */
export function usageEnabled(environment: Environment): boolean {
  return lstatSync(usageFilePath(environment), { throwIfNoEntry: false })?.isFile() === true;
}

/** Count usage from now on: make the usage file (kept as it is when there). */
export function enableUsage(environment: Environment): void {
  const path = usageFilePath(environment);
  const found = lstatSync(path, { throwIfNoEntry: false });
  if (found !== undefined) {
    if (found.isFile()) return;
    throw unsafe(path);
  }
  mkdirSync(dirname(path), { recursive: true });
  closeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
}

/** Stop counting and forget what was counted: the usage file removed. False when there was none. */
export function disableUsage(environment: Environment): boolean {
  const path = usageFilePath(environment);
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return false;
  // a link is removed itself, never what it points at
  rmSync(path);
  return true;
}

/**
 * Append `rows` to the usage file, when counting is enabled (false when it is not). One write of
 * whole lines to a file opened for appending and never through a link: two servers counting at
 * once each add their lines, and none is lost.
 */
export function appendUsage(environment: Environment, rows: readonly UsageRow[]): boolean {
  if (rows.length === 0) return usageEnabled(environment);
  const path = usageFilePath(environment);
  let descriptor: number;
  try {
    descriptor = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw unsafe(path, error);
  }
  try {
    writeSync(descriptor, rows.map((row) => `${JSON.stringify(row)}\n`).join(""));
  } finally {
    closeSync(descriptor);
  }
  return true;
}

/**
 * Each skill's counts in the usage file from `since` (a `YYYY-MM-DD` day) on, most used first
 * (lines that do not read as a `UsageRow` are skipped); `undefined` when counting is not enabled.
 */
export function readUsage(
  environment: Environment,
  since = "",
): { readonly skills: readonly SkillUsage[]; readonly skipped: number } | undefined {
  if (!usageEnabled(environment)) return undefined;
  const path = usageFilePath(environment);
  let text: string;
  try {
    text = readRegularFile(path, undefined, { noFollow: true }).toString("utf8");
  } catch (error) {
    throw unsafe(path, error);
  }
  const bySkill = new Map<string, SkillUsage>();
  let skipped = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const row = usageRow(line);
    if (row === undefined) {
      skipped += 1;
      continue;
    }
    if (row.day < since) continue;
    const seen = bySkill.get(row.skill);
    bySkill.set(row.skill, {
      skill: row.skill,
      gets: (seen?.gets ?? 0) + row.gets,
      reads: (seen?.reads ?? 0) + row.reads,
      firstDay: seen === undefined || row.day < seen.firstDay ? row.day : seen.firstDay,
      lastDay: seen === undefined || row.day > seen.lastDay ? row.day : seen.lastDay,
    });
  }
  const skills = [...bySkill.values()].sort(
    (a, b) => b.gets + b.reads - (a.gets + a.reads) || (a.skill < b.skill ? -1 : 1),
  );
  return { skills, skipped };
}

// --- internal ---

function usageRow(line: string): UsageRow | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const row = value as Partial<UsageRow> | null;
  const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  return typeof row?.day === "string" &&
    /^\d{4}-\d{2}-\d{2}$/.test(row.day) &&
    typeof row.skill === "string" &&
    count(row.gets) &&
    count(row.reads)
    ? (row as UsageRow)
    : undefined;
}

function unsafe(path: string, cause?: unknown): SkillshelfError {
  return new SkillshelfError(
    "usage_file_unsafe",
    `the usage file ${path} is not a regular file of its own`,
    { path, cause },
  );
}
