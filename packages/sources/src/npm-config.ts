import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Environment, readRegularFile, SkillshelfError } from "@skillshelf/core";
import { parse } from "ini";

/**
 * The user's own npm configuration, read as npm reads it, for an npm source: the registry,
 * scoped registries (`@team:registry`) and credentials per registry (`//host/:_authToken`).
 * Read on first use, once per provider; `undefined` values are left out.
 */
export type NpmConfig = () => Readonly<Record<string, string>>;

/**
 * npm's settings from, lowest first: the user's `.npmrc` (`$NPM_CONFIG_USERCONFIG`, else
 * `~/.npmrc`), the project's `.npmrc`, then `npm_config_*` variables; `${NAME}` in a value is
 * taken from the environment, as npm does. Its cache is the user's npm cache. A file that is
 * not a regular file or is unreadable, or names a variable that is not set, is
 * `npm_config_invalid`, naming it.
 */
export function npmConfig(environment: Environment): NpmConfig {
  let config: Readonly<Record<string, string>> | undefined;
  return () => {
    config ??= readNpmConfig(environment);
    return config;
  };
}

// --- internal ---

/** An .npmrc holds a few settings; anything past this is not one. */
const MAX_NPMRC_BYTES = 1024 * 1024;

function readNpmConfig(environment: Environment): Readonly<Record<string, string>> {
  const { env } = environment;
  const files = [
    env.NPM_CONFIG_USERCONFIG ?? env.npm_config_userconfig ?? join(environment.home, ".npmrc"),
    join(environment.project ?? environment.cwd, ".npmrc"),
  ];
  const config: Record<string, string> = { cache: join(environment.home, ".npm", "_cacache") };
  for (const file of files) Object.assign(config, readNpmrc(file, environment));
  for (const [name, value] of Object.entries(env))
    if (/^npm_config_/i.test(name) && value !== undefined && value !== "")
      config[name.slice("npm_config_".length).toLowerCase().replaceAll("_", "-")] = value;
  return config;
}

function readNpmrc(path: string, environment: Environment): Record<string, string> {
  if (!existsSync(path)) return {};
  let text: string;
  try {
    text = readRegularFile(path, MAX_NPMRC_BYTES).toString("utf8");
  } catch (error) {
    throw new SkillshelfError("npm_config_invalid", `${path} cannot be read as an .npmrc`, {
      path,
      cause: error,
    });
  }
  // npm's own reader of .npmrc files; a setting is a top-level key with a text value
  const settings: Record<string, string> = {};
  for (const [key, value] of Object.entries(parse(text)))
    if (typeof value === "string")
      settings[key] = value.replace(/\$\{([^}]+)\}/g, (_, name: string) => {
        // as npm does, a variable that is not set is an error, not an empty credential
        const variable = environment.env[name];
        if (variable === undefined)
          throw new SkillshelfError(
            "npm_config_invalid",
            `${path} uses $\{${name}}, which is not set`,
            {
              path,
              details: { variable: name },
            },
          );
        return variable;
      });
  return settings;
}
