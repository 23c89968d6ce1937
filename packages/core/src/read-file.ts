import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import type { Code } from "./codes.js";
import { createDiagnostic } from "./diagnostics.js";
import { errnoCode, isSkillshelfError, SkillshelfError } from "./errors.js";
import { sha256 } from "./hash.js";
import { decodeText } from "./text.js";
import type { ReadResult } from "./types.js";

/**
 * Open `path` for reading only if it is a regular file: it is opened non-blocking, so a FIFO,
 * device or socket cannot stall the call, then checked with `fstat` on the open descriptor, so
 * nothing can be swapped in between. Returns the descriptor, size and mode bits and the whole
 * `fstat` (close it yourself); throws `not_a_file` for anything but a regular file, and the usual
 * `fs` errors otherwise. `noFollow`: a symlink at `path` is not followed (the open fails with
 * `ELOOP`).
 */
export function openRegularFile(
  path: string,
  options: { readonly noFollow?: boolean } = {},
): OpenedFile & { readonly stats: Stats } {
  let fd: number;
  const flags = constants.O_RDONLY | constants.O_NONBLOCK;
  try {
    fd = openSync(path, options.noFollow === true ? flags | constants.O_NOFOLLOW : flags);
  } catch (error) {
    // a socket cannot be opened at all
    if (errnoCode(error) === "ENXIO") throw notAFile(path);
    throw error;
  }
  const stats = fstatSync(fd);
  if (!stats.isFile()) {
    closeSync(fd);
    throw notAFile(path);
  }
  return { fd, size: stats.size, mode: stats.mode, stats };
}

/** A regular file `openRegularFile` opened: its descriptor, size and mode bits. */
export interface OpenedFile {
  readonly fd: number;
  readonly size: number;
  readonly mode: number;
}

/**
 * Read a whole regular file (see `openRegularFile`, and its `noFollow`): `not_a_file` for anything
 * else, and `file_too_large` past `maxBytes` (checked before reading, and again if the file grows
 * while it is read). Throws the usual `fs` errors.
 */
export function readRegularFile(
  path: string,
  maxBytes: number = Number.MAX_SAFE_INTEGER,
  options: { readonly noFollow?: boolean } = {},
): Buffer {
  const opened = openRegularFile(path, options);
  try {
    return readOpened(path, opened, maxBytes);
  } finally {
    closeSync(opened.fd);
  }
}

/** What tells one version of a file from another: its inode, size and times (any write moves one). */
export interface FileStamp {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

/** A file's stamp, from its stats. */
export function fileStamp(stats: FileStamp): FileStamp {
  return { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs };
}

/** How long a change may stay unseen in a file's times (git's racily clean entries): 2 s. */
export const RACY_MS = 2_000;

/**
 * Whether a file's last change (its stamp's later time) is at least `racyMs` before `now`, so a
 * later change will show in its times: only then may something be kept by that stamp.
 */
export function isSettled(
  stamp: Pick<FileStamp, "mtimeMs" | "ctimeMs">,
  now: number = Date.now(),
  racyMs: number = RACY_MS,
): boolean {
  return now - Math.max(stamp.mtimeMs, stamp.ctimeMs) >= racyMs;
}

/** Whether two stamps name the same version of a file. */
export function sameStamp(one: FileStamp, other: FileStamp): boolean {
  return (
    one.ino === other.ino &&
    one.size === other.size &&
    one.mtimeMs === other.mtimeMs &&
    one.ctimeMs === other.ctimeMs
  );
}

/**
 * Read a whole regular file (as `readRegularFile`) that must still be the version `stamp` names:
 * `undefined` when the open file's stamp differs before or after its bytes are read.
 */
export function readStampedFile(
  path: string,
  maxBytes: number,
  stamp: FileStamp,
): Buffer | undefined {
  const { fd, size } = openRegularFile(path);
  try {
    if (!sameStamp(fstatSync(fd), stamp)) return undefined;
    if (size > maxBytes) throw tooLarge(path, size, maxBytes);
    const bytes = readOpenFile(fd, size, maxBytes);
    return bytes !== undefined && sameStamp(fstatSync(fd), stamp) ? bytes : undefined;
  } finally {
    closeSync(fd);
  }
}

/** A text document's content: its text, the sha256 of its bytes and their count. */
export interface TextContent {
  readonly text: string;
  readonly hash: string;
  readonly size: number;
}

/** A resource file read as a text document, or why it could not be. */
export type TextDocument = ReadResult<TextContent>;

/**
 * Read a resource file that must be a UTF-8 text document of at most `maxBytes`: a larger file is
 * refused before it is read (`file_too_large`), and so are anything but a regular file
 * (`not_a_file`), invalid UTF-8 (`file_not_utf8`), NUL bytes (`file_contains_nul`) and unreadable
 * files (`read_failed`), each an error diagnostic on `path` (the path as discovered; `realPath`
 * is what is read). `hash` is the sha256 of the bytes.
 */
export function readTextDocument(options: TextFileOptions): TextDocument {
  const { realPath, maxBytes, opened } = options;
  let bytes: Buffer;
  try {
    bytes =
      opened === undefined
        ? readRegularFile(realPath, maxBytes)
        : readOpened(realPath, opened, maxBytes);
  } catch (error) {
    return readRefusal(error, options);
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) return notTextRefusal(decoded.reason, options);
  return {
    ok: true,
    value: { text: decoded.text, hash: sha256(bytes), size: bytes.length },
    diagnostics: [],
  };
}

/** What a text reader is told about the file it reads. */
export interface TextFileOptions {
  readonly path: string;
  readonly realPath: string;
  readonly maxBytes: number;
  /** What the file is, for messages: "skill file", "prompt template", … */
  readonly what: string;
  /** The file at `realPath`, already opened by the caller (who closes it): read from its start. */
  readonly opened?: OpenedFile | undefined;
}

/**
 * The refusal of a text file that could not be read: `file_too_large`, `not_a_file` or
 * `read_failed`, from the error `openRegularFile` or a read threw.
 */
export function readRefusal(error: unknown, options: TextFileOptions): ReadResult<never> {
  const { path, maxBytes, what } = options;
  if (isSkillshelfError(error) && error.code === "file_too_large")
    return refuse(
      "file_too_large",
      `${what} is ${error.details?.size} bytes, over the ${maxBytes}-byte limit; split it or move detail into other files`,
      path,
      { size: error.details?.size },
    );
  if (isSkillshelfError(error) && error.code === "not_a_file")
    return refuse(
      "not_a_file",
      `${what} is not a regular file (a FIFO, device, socket or folder); only files are read`,
      path,
    );
  return refuse(
    "read_failed",
    `cannot read ${what} (${errnoCode(error) ?? String(error)}); check its permissions`,
    path,
  );
}

/** The refusal of bytes that are not UTF-8 text (`decodeText`'s reason). */
export function notTextRefusal(
  reason: "nul" | "utf8",
  options: TextFileOptions,
): ReadResult<never> {
  return refuse(
    reason === "nul" ? "file_contains_nul" : "file_not_utf8",
    `${options.what} is not UTF-8 text; it must be a document, not a binary payload`,
    options.path,
  );
}

/** The `file_too_large` error of a file of `size` bytes over `maxBytes`. */
export function tooLarge(path: string, size: number, maxBytes: number): SkillshelfError {
  return new SkillshelfError(
    "file_too_large",
    `${path} is ${size} bytes, over the ${maxBytes}-byte limit`,
    {
      path,
      details: { size },
    },
  );
}

// --- internal ---

/** The whole of an opened file, read from its start (see `readRegularFile`). */
function readOpened(path: string, { fd, size }: OpenedFile, maxBytes: number): Buffer {
  if (size > maxBytes) throw tooLarge(path, size, maxBytes);
  const bytes = readOpenFile(fd, size, maxBytes);
  if (bytes === undefined) throw tooLarge(path, maxBytes + 1, maxBytes);
  return bytes;
}

/** The file's bytes to its end, or `undefined` once they pass `maxBytes` (it grew). */
function readOpenFile(fd: number, size: number, maxBytes: number): Buffer | undefined {
  let buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) return undefined;
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(grown);
      buffer = grown;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
  }
  return length > maxBytes ? undefined : buffer.subarray(0, length);
}

function notAFile(path: string): SkillshelfError {
  return new SkillshelfError(
    "not_a_file",
    `${path} is not a regular file (a FIFO, device, socket or folder); only files are read`,
    { path },
  );
}

function refuse(
  code: Code,
  message: string,
  path: string,
  details?: Record<string, unknown>,
): ReadResult<never> {
  return { ok: false, diagnostics: [createDiagnostic("error", code, message, { path, details })] };
}
