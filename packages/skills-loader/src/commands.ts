/** A `/skill` command typed by the operator. */
export interface SkillCommand {
  readonly name: string;
  /** Everything after the name, trimmed; empty when none. */
  readonly args: string;
}

/**
 * Parse an operator message of the form `/skill <name> [args]` or `/skill:<name> [args]`.
 * Returns `undefined` for anything else, including a bare `/skill`.
 * @example parseSkillCommand("/skill deploy to staging") // { name: "deploy", args: "to staging" }
 */
export function parseSkillCommand(text: string): SkillCommand | undefined {
  const match = /^\/skill(?::(\S+)|[ \t]+(\S+))(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (match === null) return undefined;
  const name = (match[1] ?? match[2]) as string;
  return { name, args: (match[3] ?? "").trim() };
}

/**
 * Read the skills a model asked the operator to run, from the protocol line that begins its reply:
 * `Suggested skill: /skill a` or, when several compose, `Suggested skill: /skill a, /skill b`.
 * Only the first non-blank line counts. Names are returned in order without repeats; with `known`,
 * names outside it are dropped (a model may invent one).
 */
export function parseSuggestedSkills(
  text: string,
  options: { readonly known?: Iterable<string> } = {},
): string[] {
  const firstLine =
    text
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim() ?? "";
  const match = /^\**Suggested skills?:\**\s*(.+)$/i.exec(firstLine);
  if (match === null) return [];
  const known = options.known === undefined ? undefined : new Set(options.known);
  const names: string[] = [];
  for (const part of (match[1] as string).split(",")) {
    const name = /^(?:\/skill(?::|\s+))?([^\s`]+)$/.exec(part.trim().replace(/^`|`$/g, ""))?.[1];
    if (name === undefined || names.includes(name) || (known !== undefined && !known.has(name)))
      continue;
    names.push(name);
  }
  return names;
}
