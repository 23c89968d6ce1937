import { isUtf8 } from "node:buffer";

/** The outcome of reading bytes as a text document. */
export type DecodedText =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: "nul" | "utf8" };

/**
 * Decode bytes that must be a UTF-8 text document: invalid UTF-8 and NUL bytes are refused (both
 * mean a binary file). A byte-order mark is kept in the text; `splitFrontmatter` skips it.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes.indexOf(0) !== -1) return { ok: false, reason: "nul" };
  if (!isUtf8(bytes)) return { ok: false, reason: "utf8" };
  return {
    ok: true,
    text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"),
  };
}

/**
 * A copy of `text` that does not share memory with the string it was cut from. Values kept from a
 * file's frontmatter are cut from it, so they would otherwise keep the whole file alive.
 */
export function detachText(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}
