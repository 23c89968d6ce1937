import { lstatSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { AGENTS, findAgent } from "./agents.js";
import { SkillshelfError } from "./errors.js";
import { closest } from "./suggest.js";
import type { Environment, EnvironmentInput, PackageScope } from "./types.js";

/**
 * Resolve the environment once, at the edge. This is the only place that reads `process.env`,
 * `process.cwd()` and the OS home folder; everything else takes the result as a parameter.
 *
 * `configDir` is `input.configDir`, else `$SKILLSHELF_HOME`, else `$XDG_CONFIG_HOME/skillshelf`
 * (only when absolute, as the XDG spec asks), else `<home>/.config/skillshelf`. `project` is
 * `input.project`, else found from `cwd` by `findProject`.
 */
export function resolveEnvironment(input: EnvironmentInput = {}): Environment {
  const env = input.env ?? process.env;
  const cwd = resolve(input.cwd ?? process.cwd());
  const home = resolve(cwd, input.home ?? env.HOME ?? homedir());
  const configDir = resolve(cwd, input.configDir ?? defaultConfigDir(env, home));
  const project = input.project === undefined ? findProject(cwd) : resolve(cwd, input.project);
  const hosts = hostAgents(input.host);
  return { cwd, project, home, configDir, env, ...(hosts.length === 0 ? {} : { hosts }) };
}

/** The agent ids `host` names (ids or aliases), or `option_invalid` naming the unknown one. */
function hostAgents(host: EnvironmentInput["host"]): string[] {
  if (host === undefined) return [];
  const names = typeof host === "string" ? [host] : host;
  if (!Array.isArray(names) || names.some((name) => typeof name !== "string"))
    throw new SkillshelfError(
      "option_invalid",
      "the option host must be an agent id or a list of them",
      {
        details: { option: "host" },
      },
    );
  return names.map((name) => {
    const agent = findAgent(name);
    if (agent !== undefined) return agent.id;
    const suggestion = closest(
      name,
      AGENTS.map((one) => one.id),
    );
    throw new SkillshelfError(
      "option_invalid",
      `the option host names ${name}, which is no agent of the table${suggestion === undefined ? "" : `; did you mean ${suggestion}?`}`,
      { details: { option: "host", ...(suggestion === undefined ? {} : { suggestion }) } },
    );
  });
}

/**
 * The project a folder belongs to: the nearest folder at or above `cwd` holding a
 * `.skillshelf/` folder, else the root of the git work tree `cwd` is in (the nearest folder with
 * a `.git` entry), else `cwd`. The search for `.skillshelf/` stops at that root: a repository is
 * one project, so a `.skillshelf/` above it is not this project's.
 */
export function findProject(cwd: string): string {
  let gitRoot: string | undefined;
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (quietly(() => statSync(join(dir, ".skillshelf")).isDirectory())) return dir;
    if (quietly(() => lstatSync(join(dir, ".git")) !== undefined)) {
      gitRoot = dir;
      break;
    }
    if (dirname(dir) === dir) break;
  }
  return gitRoot ?? resolve(cwd);
}

/** The project library folder for an environment: `<project>/.skillshelf`. */
export function projectLibraryDir(environment: Pick<Environment, "project">): string {
  return join(environment.project, ".skillshelf");
}

/** The user library folder for an environment (its `configDir`). */
export function userLibraryDir(environment: Environment): string {
  return environment.configDir;
}

/** The folder a scope is anchored to: the home folder (user) or the project folder. */
export function scopeAnchor(environment: Environment, scope: PackageScope): string {
  return scope === "user" ? environment.home : environment.project;
}

/** A scope's library folder: the user library or the project library. */
export function scopeLibraryDir(environment: Environment, scope: PackageScope): string {
  return scope === "user" ? userLibraryDir(environment) : projectLibraryDir(environment);
}

// --- internal ---

function defaultConfigDir(env: Readonly<Record<string, string | undefined>>, home: string): string {
  const explicit = nonEmpty(env.SKILLSHELF_HOME);
  if (explicit !== undefined) return explicit;
  const xdg = nonEmpty(env.XDG_CONFIG_HOME);
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, "skillshelf");
  return join(home, ".config", "skillshelf");
}

/** `test()`, or false when the file system says no (absent, not a folder, not readable). */
function quietly(test: () => boolean): boolean {
  try {
    return test();
  } catch {
    return false;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
