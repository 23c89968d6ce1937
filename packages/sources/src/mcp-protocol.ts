/** The MCP extension for skills (SEP-2640), as servers declare it under `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/**
 * SEP-2640's per-skill limits: every host loads a skill within them, no server should serve one
 * beyond them. Counted over the entry's `resources` (`SKILL.md` included) and the sum of their sizes.
 */
export const SKILL_LIMITS: { readonly files: number; readonly bytes: number } = {
  files: 512,
  bytes: 16 * 1024 * 1024,
};

/** True when a skill of `files` files and `bytes` bytes in all is over `SKILL_LIMITS`. */
export function overSkillLimits(files: number, bytes: number): boolean {
  return files > SKILL_LIMITS.files || bytes > SKILL_LIMITS.bytes;
}

/** What an `mcp` source's `url` starts with when it names a command to start, not an endpoint. */
export const STDIO_PREFIX = "stdio:";

/**
 * The segments of a URI's path (`a/b%20c` → `["a", "b c"]`), each percent-decoded, or `undefined`
 * when one is empty, `.` or `..`, does not decode, or decodes to a separator or a NUL: a path
 * that stays where it names, as a server's and a client's skill URIs must.
 */
export function decodedSegments(path: string): string[] | undefined {
  const segments: string[] = [];
  for (const raw of path.split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (segment === "" || segment === "." || segment === ".." || /[/\\\0]/.test(segment))
      return undefined;
    segments.push(segment);
  }
  return segments;
}
