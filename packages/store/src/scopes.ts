import { join } from "node:path";
import { type Environment, projectLibraryDir, userLibraryDir } from "@skillshelf/core";
import type { PackageScope } from "./types.js";

/** Both package scopes, lower precedence first. */
export const PACKAGE_SCOPES: readonly PackageScope[] = ["user", "project"];

/**
 * The folder holding a scope's installed copies and its `state.json`: `<configDir>/packages` for
 * the user scope, `<project>/.skillshelf/packages` for the project scope.
 */
export function packagesDir(environment: Environment, scope: PackageScope): string {
  const library = scope === "user" ? userLibraryDir(environment) : projectLibraryDir(environment);
  return join(library, "packages");
}
