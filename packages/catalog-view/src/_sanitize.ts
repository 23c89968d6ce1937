// C0 and C1 controls (tab and line breaks included), line and paragraph separators, lone surrogates
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to remove
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSAFE_ALL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to remove
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SPACES = /\s{2,}/;
// three or more backticks or tildes could open a code fence in a model's reading
const FENCE = /(`{3,}|~{3,})/g;

/**
 * Author text made safe for one line of a listing: control characters and line breaks become
 * spaces, lone surrogates become U+FFFD, runs of whitespace collapse, fence markers are broken up,
 * and text longer than `max` characters is cut with `…`. Returns the text and whether it was cut.
 */
export function oneLine(text: string, max: number): { text: string; clipped: boolean } {
  let clean = text;
  if (UNSAFE.test(clean)) {
    clean = clean.replace(UNSAFE_ALL, (char) =>
      char.length === 1 && char.charCodeAt(0) >= 0xd800 && char.charCodeAt(0) <= 0xdfff
        ? "\ufffd"
        : " ",
    );
  }
  if (SPACES.test(clean) || clean !== clean.trim()) clean = clean.replace(/\s+/g, " ").trim();
  if (clean.includes("``") || clean.includes("~~"))
    clean = clean.replace(FENCE, (run) => run.split("").join(" "));
  const characters = [...clean];
  if (characters.length <= max) return { text: clean, clipped: false };
  return { text: `${characters.slice(0, max - 1).join("")}…`, clipped: true };
}

/** Escape text for XML element content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"]/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[char] as string,
  );
}

/** Escape the characters markdown would read as markup inside one list item. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|#]/g, (char) => `\\${char}`);
}
