import type { Environment } from "@skillshelf/core";
import { readLockFile } from "@skillshelf/store";

/**
 * Which `mcp+stdio:` command lines a change may start: the ones typed in `texts` (its targets and
 * `--from`), the ones the user's own lock records (installed by them before), or any with
 * `--allow-mcp-command`. A command in a project's lock or an index came with a clone, and is not
 * run on its say alone.
 */
export function mcpCommandsAllowed(
  environment: Environment,
  texts: readonly string[],
  allowAny: boolean,
): (command: string) => boolean {
  if (allowAny) return () => true;
  const typed = new Set(texts.flatMap((text) => commandOf(text) ?? []));
  let own: ReadonlySet<string> | undefined;
  return (command) => {
    if (typed.has(command)) return true;
    own ??= userLockCommands(environment);
    return own.has(command);
  };
}

// --- internal ---

const STDIO_SOURCE = "mcp+stdio:";

/** The command line of an `mcp+stdio:` source text (without its `#path=`), else `undefined`. */
function commandOf(text: string): string | undefined {
  if (!text.startsWith(STDIO_SOURCE)) return undefined;
  const hash = text.indexOf("#");
  return text.slice(STDIO_SOURCE.length, hash === -1 ? undefined : hash).trim();
}

function userLockCommands(environment: Environment): ReadonlySet<string> {
  const read = readLockFile(environment, "user");
  const commands = new Set<string>();
  if (!read.ok) return commands;
  for (const entry of Object.values(read.value.value.packages)) {
    const { source } = entry;
    if (source.type === "mcp" && source.url.startsWith("stdio:")) commands.add(source.url.slice(6));
  }
  return commands;
}
