import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { createDiagnostic } from "./diagnostics.js";
import { errnoCode } from "./errors.js";
import { sha256 } from "./hash.js";
import { decodeText } from "./text.js";
import type { Diagnostic } from "./types.js";

/**
 * Read a whole file whose size a stat just reported, skipping the second stat `readFileSync`
 * makes. If the file grew since, it falls back to reading it whole; if it shrank, the shorter
 * content is returned. Throws the usual `fs` errors.
 */
export function readFileOfSize(path: string, size: number): Buffer {
  const buffer = Buffer.allocUnsafe(size + 1);
  const fd = openSync(path, "r");
  let length = 0;
  try {
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
  } finally {
    closeSync(fd);
  }
  return length > size ? readFileSync(path) : buffer.subarray(0, length);
}

/** A resource file read as a text document, or why it could not be. */
export type TextDocument =
  | { readonly ok: true; readonly text: string; readonly hash: string; readonly size: number }
  | { readonly ok: false; readonly diagnostic: Diagnostic };

/**
 * Read a resource file that must be a UTF-8 text document of at most `maxBytes`: a larger file is
 * refused before it is read (`file_too_large`), and so are invalid UTF-8 (`file_not_utf8`), NUL
 * bytes (`file_contains_nul`) and unreadable files (`read_failed`), each an error diagnostic on
 * `path` (the path as discovered; `realPath` is what is read). `hash` is the sha256 of the bytes.
 */
export function readTextDocument(options: {
  readonly path: string;
  readonly realPath: string;
  readonly maxBytes: number;
  /** The size a stat already reported, if any. */
  readonly size?: number | undefined;
  /** What the file is, for messages: "skill file", "prompt template", … */
  readonly what: string;
}): TextDocument {
  const { path, realPath, maxBytes, what } = options;
  let bytes: Buffer;
  try {
    const size = options.size ?? statSync(realPath).size;
    if (size > maxBytes) {
      return refuse(
        "file_too_large",
        `${what} is ${size} bytes, over the ${maxBytes}-byte limit; split it or move detail into other files`,
        path,
        { size },
      );
    }
    bytes = readFileOfSize(realPath, size);
  } catch (error) {
    return refuse(
      "read_failed",
      `cannot read ${what} (${errnoCode(error) ?? String(error)}); check its permissions`,
      path,
    );
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) {
    const code = decoded.reason === "nul" ? "file_contains_nul" : "file_not_utf8";
    return refuse(
      code,
      `${what} is not UTF-8 text; it must be a document, not a binary payload`,
      path,
    );
  }
  return { ok: true, text: decoded.text, hash: sha256(bytes), size: bytes.length };
}

// --- internal ---

function refuse(
  code: string,
  message: string,
  path: string,
  details?: Record<string, unknown>,
): TextDocument {
  return { ok: false, diagnostic: createDiagnostic("error", code, message, path, details) };
}
