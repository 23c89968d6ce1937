const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to remove
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// three or more backticks or tildes could open a code fence in a model's reading
const FENCE = /(`{3,}|~{3,})/g;

/**
 * Author text made safe for one line of a listing: control characters, bidirectional controls
 * and line breaks become spaces, lone surrogates become U+FFFD, runs of whitespace collapse, and fence markers are broken
 * up. Clean text comes back as it is, without copying.
 */
export function cleanText(text: string): string {
  if (!needsWork(text)) return text;
  return text
    .replace(UNSAFE, (char) =>
      char.charCodeAt(0) >= 0xd800 && char.charCodeAt(0) <= 0xdfff ? "\ufffd" : " ",
    )
    .replace(/\s+/g, " ")
    .trim()
    .replace(FENCE, (run) => run.split("").join(" "));
}

/** Text longer than `max` characters cut to `max` with `…`, or `undefined` when it is short enough. */
export function clipText(text: string, max: number): string | undefined {
  if (text.length <= max) return undefined;
  const characters = [...text];
  return characters.length <= max ? undefined : `${characters.slice(0, max - 1).join("")}…`;
}

/** Clean and clip in one step, for text that is not reported on. */
export function oneLine(text: string, max: number): string {
  const clean = cleanText(text);
  return clipText(clean, max) ?? clean;
}

/** Escape text for XML element content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"]/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[char] as string,
  );
}

/** The text `escapeXml` escaped. */
export function unescapeXml(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot);/g,
    (_entity, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"' })[name] as string,
  );
}

/** Escape the characters markdown would read as markup inside one list item. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|#]/g, (char) => `\\${char}`);
}

// --- internal ---

/**
 * Whether `cleanText` has anything to do: a control or separator character, a surrogate, a
 * non-ASCII space, a space at either end, or a doubled space, backtick or tilde. A plain scan:
 * far faster than a regular expression over every row.
 */
function needsWork(text: string): boolean {
  const length = text.length;
  if (length === 0) return false;
  if (text.charCodeAt(0) === 32 || text.charCodeAt(length - 1) === 32) return true;
  let previous = 0;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7f && code <= 0xa0) || (code >= 0xd800 && code <= 0xdfff))
      return true;
    if (code === 0x061c) return true;
    if (
      code >= 0x1680 &&
      (code === 0x1680 ||
        (code >= 0x2000 && code <= 0x200a) ||
        code === 0x200e ||
        code === 0x200f ||
        (code >= 0x2028 && code <= 0x202e) ||
        (code >= 0x2066 && code <= 0x2069) ||
        code === 0x202f ||
        code === 0x205f ||
        code === 0x3000 ||
        code === 0xfeff)
    )
      return true;
    if (code === previous && (code === 32 || code === 96 || code === 126)) return true;
    previous = code;
  }
  return false;
}
