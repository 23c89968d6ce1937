/**
 * The text a display-only template shows: its first fenced code block (``` or ~~~, at least
 * three, indented up to three spaces; closed by a fence of the same character at least as long),
 * with the opening fence's indentation removed from its lines; the whole body when there is no
 * closed fence. Line endings come back as LF.
 */
export function extractDisplayText(body: string): string {
  const lines = body.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  for (let start = 0; start < lines.length; start++) {
    const open = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(lines[start] as string);
    if (open === null) continue;
    const [, indent = "", fence = "", info = ""] = open;
    // a backtick fence's info string may not hold a backtick
    if (fence[0] === "`" && info.includes("`")) continue;
    for (let end = start + 1; end < lines.length; end++) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(lines[end] as string);
      if (close === null || close[1]?.[0] !== fence[0] || (close[1]?.length ?? 0) < fence.length)
        continue;
      return lines
        .slice(start + 1, end)
        .map((line) => stripIndent(line, indent.length))
        .join("\n");
    }
    // the first opening fence never closes: there is no fenced block to show
    break;
  }
  return body.replaceAll("\r\n", "\n");
}

// --- internal ---

function stripIndent(line: string, width: number): string {
  let index = 0;
  while (index < width && line[index] === " ") index += 1;
  return line.slice(index);
}
