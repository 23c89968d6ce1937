import { type Stats, statSync } from "node:fs";
import {
  createDiagnostic,
  type Diagnostic,
  errnoCode,
  type FileStamp,
  parseFrontmatter,
  readTextDocument,
  readTextHead,
} from "@skillshelf/core";
import type { SkillLocation } from "./_walk.js";
import type { SkillCache } from "./cache.js";
import { readSkillFields, type SkillFields } from "./fields.js";

/** A skill file over this many bytes is refused. */
export const MAX_SKILL_BYTES = 1_048_576;
/** A skill file over this many bytes loads with a warning: agents may cut it short on activation. */
export const LARGE_SKILL_BYTES = 51_200;

/** What identifies one version of a file: where it really is, and its inode, size and times. */
interface FileSignature extends FileStamp {
  readonly realPath: string;
}

/** Everything a skill file says on its own, independent of its root; what the cache keeps. */
export interface SkillFileRecord {
  readonly signature: FileSignature | undefined;
  /** The sha256 of the file's bytes, when they were all read (for the body). */
  readonly hash: string | undefined;
  /** `undefined` when the file is refused. */
  readonly fields: SkillFields | undefined;
  readonly body: string | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Read, check and parse one skill file, through the cache when one is given: its frontmatter
 * only (`readTextHead`), or the whole file when the body is kept.
 */
export function readSkillFile(
  location: SkillLocation,
  includeBody: boolean,
  cache: SkillCache | undefined,
): SkillFileRecord {
  const { path } = location;
  const steady = location.steady === true ? cache?.steady(path, location.realPath) : undefined;
  if (
    steady !== undefined &&
    (!includeBody || steady.fields === undefined || steady.body !== undefined)
  )
    return steady;
  let stats: Stats;
  try {
    stats = location.stats ?? statSync(location.realPath);
  } catch (error) {
    return refused(undefined, [
      createDiagnostic(
        "error",
        "read_failed",
        `cannot read skill file (${errnoCode(error) ?? String(error)})`,
        { path },
      ),
    ]);
  }
  const cached = cache?.lookup(path, location.realPath, stats);
  if (
    cached !== undefined &&
    (!includeBody || cached.fields === undefined || cached.body !== undefined)
  )
    return cached;
  const signature: FileSignature = {
    realPath: location.realPath,
    ino: stats.ino,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
  };
  const record = parseSkillFile(location, signature, stats.size, includeBody);
  cache?.store(path, record);
  return record;
}

// --- internal ---

function parseSkillFile(
  location: SkillLocation,
  signature: FileSignature,
  size: number,
  includeBody: boolean,
): SkillFileRecord {
  const { path } = location;
  const file = {
    path,
    realPath: location.realPath,
    maxBytes: MAX_SKILL_BYTES,
    what: "skill file",
    opened: location.opened,
  };
  const document = includeBody ? readTextDocument(file) : readTextHead(file);
  if (!document.ok) return refused(signature, [...document.diagnostics]);
  const { text } = document.value;
  const hash = "hash" in document.value ? document.value.hash : undefined;
  const diagnostics: Diagnostic[] = [];
  if (location.unusualName) {
    diagnostics.push(
      createDiagnostic(
        "warning",
        "skill_file_name",
        "skill file should be named exactly SKILL.md",
        { path },
      ),
    );
  }
  if (size > LARGE_SKILL_BYTES) {
    diagnostics.push(
      createDiagnostic(
        "warning",
        "file_large",
        `skill file is ${size} bytes; agents may cut it short on activation`,
        { path, details: { size } },
      ),
    );
  }
  const parsed = parseFrontmatter(text, { path });
  if (!parsed.ok) {
    if (location.loose && parsed.code === "frontmatter_missing") {
      return refused(signature, [
        createDiagnostic(
          "info",
          "loose_file_skipped",
          "markdown file without frontmatter is not a skill",
          { path },
        ),
      ]);
    }
    return {
      signature,
      hash,
      fields: undefined,
      body: undefined,
      diagnostics: [...diagnostics, parsed.diagnostic],
    };
  }
  const read = readSkillFields(parsed.data, location.subject, path);
  return {
    signature,
    hash,
    fields: read.fields,
    body: includeBody && read.fields !== undefined ? parsed.body : undefined,
    diagnostics: [...diagnostics, ...parsed.diagnostics, ...read.diagnostics],
  };
}

function refused(signature: FileSignature | undefined, diagnostics: Diagnostic[]): SkillFileRecord {
  return { signature, hash: undefined, fields: undefined, body: undefined, diagnostics };
}
