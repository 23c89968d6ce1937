import { closeSync, readSync } from "node:fs";
import { splitFrontmatter } from "./frontmatter.js";
import {
  notTextRefusal,
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
   * The decoded text: the whole file when `complete`, else whole lines from its start that hold
   * the frontmatter block through its closing line (or show that it has none).
   */
  readonly text: string;
  readonly complete: boolean;
}

/**
 * Read a file's frontmatter without its body: `HEAD_BLOCK_BYTES` first, then twice as many each
 * time until the bytes hold the closing `---` line, show there is no opening one, or end. What
 * `parseFrontmatter` makes of `text` is what it makes of the whole file, bar the body. Refusals are
 * `readTextDocument`'s, judged on the bytes read: a file over `maxBytes` is refused before it is
 * read, and invalid UTF-8 or a NUL byte in the part read is refused; a body past it is not looked
 * at (`readSkillBody` checks it when it is read).
 */
export function readTextHead(options: TextFileOptions): ReadResult<TextHead> {
  let opened: ReturnType<typeof openRegularFile>;
  try {
    opened = openRegularFile(options.realPath);
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
    closeSync(fd);
  }
}

// --- internal ---

function readHead(fd: number, size: number, options: TextFileOptions): ReadResult<TextHead> {
  const { maxBytes } = options;
  let buffer = Buffer.allocUnsafe(Math.min(size + 1, HEAD_BLOCK_BYTES, maxBytes + 1));
  let length = 0;
  for (;;) {
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) return decoded(buffer.subarray(0, length), true, options);
      length += read;
    }
    if (length > maxBytes)
      return readRefusal(tooLarge(options.path, maxBytes + 1, maxBytes), options);
    // whole lines only: a newline byte never sits inside a multi-byte character
    const lines = buffer.lastIndexOf(10, length - 1) + 1;
    if (lines > 0) {
      const head = decoded(buffer.subarray(0, lines), false, options);
      if (!head.ok || splitFrontmatter(head.value.text).kind !== "unclosed") return head;
    }
    const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
    buffer.copy(grown, 0, 0, length);
    buffer = grown;
  }
}

function decoded(bytes: Buffer, complete: boolean, options: TextFileOptions): ReadResult<TextHead> {
  const text = decodeText(bytes);
  if (!text.ok) return notTextRefusal(text.reason, options);
  return { ok: true, value: { text: text.text, complete }, diagnostics: [] };
}
