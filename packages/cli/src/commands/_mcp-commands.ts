import type { Environment } from "@skillshelf/core";
import { parseSourceUrl, sourceCommand } from "@skillshelf/sources";
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
  const typed = new Set(texts.flatMap((text) => commandOf(text, environment.cwd) ?? []));
  let own: ReadonlySet<string> | undefined;
  return (command) => {
    if (typed.has(command)) return true;
    own ??= userLockCommands(environment);
    return own.has(command);
  };
}

// --- internal ---

/** The command line an `mcp+stdio:` source text names, read as the source is, else `undefined`. */
function commandOf(text: string, baseDir: string): string | undefined {
  const parsed = parseSourceUrl(text, baseDir);
  return parsed.ok ? sourceCommand(parsed.source) : undefined;
}

function userLockCommands(environment: Environment): ReadonlySet<string> {
  const read = readLockFile(environment, "user");
  const commands = new Set<string>();
  if (!read.ok) return commands;
  for (const { source } of Object.values(read.value.value.packages)) {
    const command = sourceCommand(source);
    if (command !== undefined) commands.add(command);
  }
  return commands;
}
