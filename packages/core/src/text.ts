const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

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
  try {
    return { ok: true, text: UTF8.decode(bytes) };
  } catch {
    return { ok: false, reason: "utf8" };
  }
}
