import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Environment, type PackageScope, scopeLibraryDir } from "@skillshelf/core";

/** Both package scopes, lower precedence first. */
export const PACKAGE_SCOPES: readonly PackageScope[] = ["user", "project"];

/**
 * The folder holding a scope's installed copies and its `state.json`: `<configDir>/packages` for
 * the user scope, `<project>/.skillshelf/packages` for the project scope.
 */
export function packagesDir(environment: Environment, scope: PackageScope): string {
  const library = scopeLibraryDir(environment, scope);
  return join(library, "packages");
}

/**
 * The scope a change goes to when none is named and no installed copy decides it: the project
 * scope inside a project (a folder holding `.skillshelf/`, or a git work tree), else the user scope.
 * Every command and the planner ask here, so a refusal names the scope the change would have used.
 */
export function defaultScope(environment: Environment): PackageScope {
  const { project } = environment;
  return existsSync(join(project, ".skillshelf")) || existsSync(join(project, ".git"))
    ? "project"
    : "user";
}
