import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { Environment, EnvironmentInput } from "./types.js";

/**
 * Resolve the environment once, at the edge. This is the only place that reads `process.env`,
 * `process.cwd()` and the OS home folder; everything else takes the result as a parameter.
 *
 * `configDir` is `input.configDir`, else `$SKILLSHELF_HOME`, else `$XDG_CONFIG_HOME/skillshelf`
 * (only when absolute, as the XDG spec asks), else `<home>/.config/skillshelf`.
 */
export function resolveEnvironment(input: EnvironmentInput = {}): Environment {
  const env = input.env ?? process.env;
  const cwd = resolve(input.cwd ?? process.cwd());
  const home = resolve(cwd, input.home ?? env.HOME ?? homedir());
  const configDir = resolve(cwd, input.configDir ?? defaultConfigDir(env, home));
  return { cwd, home, configDir, env };
}

/** The project library folder for an environment: `<cwd>/.skillshelf`. */
export function projectLibraryDir(environment: Environment): string {
  return join(environment.cwd, ".skillshelf");
}

/** The user library folder for an environment (its `configDir`). */
export function userLibraryDir(environment: Environment): string {
  return environment.configDir;
}

// --- internal ---

function defaultConfigDir(env: Readonly<Record<string, string | undefined>>, home: string): string {
  const explicit = nonEmpty(env.SKILLSHELF_HOME);
  if (explicit !== undefined) return explicit;
  const xdg = nonEmpty(env.XDG_CONFIG_HOME);
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, "skillshelf");
  return join(home, ".config", "skillshelf");
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
