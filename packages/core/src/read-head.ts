import { closeSync, readSync } from "node:fs";
import {
  notTextRefusal,
  type OpenedFile,
  openRegularFile,
  readRefusal,
  type TextFileOptions,
  tooLarge,
} from "./read-file.js";
import { decodeText } from "./text.js";
import type { ReadResult } from "./types.js";

/** The first bytes read for a frontmatter: most blocks end well inside them. */
export const HEAD_BLOCK_BYTES = 4096;

/** The start of a text file, enough to read its frontmatter, or the whole file. */
export interface TextHead {
  /**
   * The decoded text: whole lines from the file's start through the frontmatter's closing line,
   * or, when the file has no opening line or never closes the block, every line read.
   */
  readonly text: string;
  /** `text` is the whole file. */
  readonly complete: boolean;
}

/**
 * Read a file's frontmatter without its body: `HEAD_BLOCK_BYTES` first, then twice as many each
 * time until the bytes hold the closing `---` line, show there is no opening one, or end. What
 * `parseFrontmatter` makes of `text` is what it makes of the whole file, bar the body. Refusals are
 * `readTextDocument`'s, judged on the text kept: a file over `maxBytes` is refused before it is
 * read, and invalid UTF-8 or a NUL byte in the frontmatter is refused; the body is not decoded
 * (`readSkillBody` checks it when it is read). A short read ends the file, as it does for a
 * regular file.
 */
export function readTextHead(options: TextFileOptions): ReadResult<TextHead> {
  let opened: OpenedFile;
  try {
    opened = options.opened ?? openRegularFile(options.realPath);
  } catch (error) {
    return readRefusal(error, options);
  }
  const { fd, size } = opened;
  try {
    if (size > options.maxBytes)
      return readRefusal(tooLarge(options.path, size, options.maxBytes), options);
    return readHead(fd, size, options);
  } catch (error) {
    return readRefusal(error, options);
  } finally {
    if (options.opened === undefined) closeSync(fd);
  }
}

// --- internal ---

function readHead(fd: number, size: number, options: TextFileOptions): ReadResult<TextHead> {
  const { maxBytes } = options;
  let buffer = Buffer.allocUnsafe(Math.min(size + 1, HEAD_BLOCK_BYTES, maxBytes + 1));
  let length = 0;
  for (;;) {
    let ended = false;
    while (length < buffer.length) {
      const wanted = buffer.length - length;
      const read = readSync(fd, buffer, length, wanted, null);
      length += read;
      // a regular file reads short only at its end
      if (read < wanted) {
        ended = true;
        break;
      }
    }
    if (length > maxBytes)
      return readRefusal(tooLarge(options.path, maxBytes + 1, maxBytes), options);
    const bytes = buffer.subarray(0, length);
    const head = headLength(bytes, ended);
    if (head !== undefined)
      return decoded(bytes.subarray(0, head), ended && head === length, options);
    const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
    buffer.copy(grown, 0, 0, length);
    buffer = grown;
  }
}

/**
 * How many of `bytes` hold the frontmatter as `splitFrontmatter` finds it: through the closing
 * line, or every whole line when there is no opening one (or the file ends first); `undefined`
 * while the block is still open at the last whole line. Whole lines only: a newline byte never
 * sits inside a multi-byte character, and the delimiters are ASCII.
 */
function headLength(bytes: Buffer, ended: boolean): number | undefined {
  const lines = ended ? bytes.length : bytes.lastIndexOf(10) + 1;
  if (lines === 0) return ended ? 0 : undefined;
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const opening = delimiterLineEnd(bytes, bom, lines);
  if (opening === -1) return lines;
  for (let lineStart = opening + 1; lineStart < lines; ) {
    const closing = delimiterLineEnd(bytes, lineStart, lines);
    if (closing !== -1) return Math.min(closing + 1, lines);
    const next = bytes.indexOf(10, lineStart);
    if (next === -1) break;
    lineStart = next + 1;
  }
  return ended ? lines : undefined;
}

/** Where the `---` line starting at `start` ends (its newline, or `limit`), or -1 when it is not one. */
function delimiterLineEnd(bytes: Buffer, start: number, limit: number): number {
  if (
    start + 3 > limit ||
    bytes[start] !== 45 ||
    bytes[start + 1] !== 45 ||
    bytes[start + 2] !== 45
  )
    return -1;
  for (let index = start + 3; index < limit; index++) {
    const byte = bytes[index];
    if (byte === 10) return index;
    // spaces, tabs and a carriage return may trail the dashes
    if (byte !== 32 && byte !== 9 && byte !== 13) return -1;
  }
  return limit;
}

function decoded(bytes: Buffer, complete: boolean, options: TextFileOptions): ReadResult<TextHead> {
  const text = decodeText(bytes);
  if (!text.ok) return notTextRefusal(text.reason, options);
  return { ok: true, value: { text: text.text, complete }, diagnostics: [] };
}
