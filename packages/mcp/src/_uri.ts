import { decodedSegments } from "@skillshelf/sources/mcp-protocol";

/** The scheme SEP-2640 names for skill files. */
const SKILL_SCHEME = "skill://";

/**
 * `skill://<name>/<file>` (or the skill's folder, `skill://<name>`, when `relative` is empty); a
 * relayed skill's name is a path (`<upstream>/<path upstream>`), each segment encoded alone.
 */
export function skillUri(name: string, relative = ""): string {
  const path = [...name.split("/"), ...(relative === "" ? [] : relative.split("/"))];
  return SKILL_SCHEME + path.map(encodeURIComponent).join("/");
}

/**
 * The skill name and the `/`-separated path inside it a `skill://` URI names (`""` for the skill's
 * folder), or `undefined` when it is no such URI: another scheme, a query or fragment, an empty,
 * `.` or `..` segment, or one that decodes to a separator or a NUL.
 */
export function parseSkillUri(
  uri: string,
): { readonly name: string; readonly relative: string } | undefined {
  if (!uri.startsWith(SKILL_SCHEME) || /[?#]/.test(uri)) return undefined;
  const [name, ...inside] = decodedSegments(uri.slice(SKILL_SCHEME.length)) ?? [];
  return name === undefined ? undefined : { name, relative: inside.join("/") };
}
