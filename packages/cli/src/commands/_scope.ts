import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Environment } from "@skillshelf/core";
import type { PackageScope } from "@skillshelf/store";
import { type CommandInput, scopeValue } from "../command.js";

/**
 * The scope a command changes: `--user` or `--project`; else, for a command naming installed
 * copies (`namesCopies`), wherever the copy is (the plan names it); else the default scope.
 */
export function chosenScope(
  input: CommandInput<{ readonly user: boolean; readonly project: boolean }>,
  environment: Environment,
  namesCopies: boolean,
): PackageScope | undefined {
  const { user, project } = input.values;
  if (user || project) return scopeValue(input, "user");
  return namesCopies ? undefined : defaultScope(environment);
}

/** The project scope inside a project (a folder holding `.skillshelf/`, or a git work tree), else the user scope. */
export function defaultScope(environment: Environment): PackageScope {
  const { project } = environment;
  return existsSync(join(project, ".skillshelf")) || existsSync(join(project, ".git"))
    ? "project"
    : "user";
}
