import { lstatSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import {
  type Diagnostic,
  type Environment,
  errorDiagnostic,
  isInside,
  isSkillshelfError,
  type PackageScope,
  realpathOrUndefined,
  SkillshelfError,
  scopeLibraryDir,
} from "@skillshelf/core";

// What a writer checks before it touches a scope: every folder it writes into,
// settles or removes from is a real folder of the scope, never a symlink it would follow out of
// it. A cloned repository can carry any of them as a symlink.

/** The entries of a scope's packages folder that writers write, settle or remove inside. */
const WRITTEN_IN_PACKAGES = [
  [".previous", "folder"],
  [".lock", "folder"],
  [".gitignore", "file"],
] as const;

/**
 * Refuse a scope whose library folders would lead a writer elsewhere (`library_symlinked`, naming
 * the symlink and its target): a project's `.skillshelf` may be a symlink only to a folder inside
 * the project; the `packages` folder and what writers keep in it (`.previous`, `.lock`,
 * `.gitignore`) must not be symlinks at all. Absent folders are fine: writers make them.
 */
export function assertScopeFolders(
  environment: Environment,
  scope: PackageScope,
  use: "write" | "read" = "write",
): void {
  const library = scopeLibraryDir(environment, scope);
  if (scope === "project") assertLibraryInProject(library, environment.project);
  const packages = join(library, "packages");
  assertPlainEntry(packages, "folder");
  if (use === "write")
    for (const [name, kind] of WRITTEN_IN_PACKAGES) assertPlainEntry(join(packages, name), kind);
}

/**
 * What `assertScopeFolders` would refuse, as an error diagnostic, for readers: `read` checks only
 * the folders a reader goes through (the library and `packages`), `write` every one.
 */
export function scopeFolderProblem(
  environment: Environment,
  scope: PackageScope,
  use: "write" | "read",
): Diagnostic | undefined {
  try {
    assertScopeFolders(environment, scope, use);
    return undefined;
  } catch (error) {
    if (!isSkillshelfError(error)) throw error;
    return errorDiagnostic(error);
  }
}

/**
 * Refuse `path` unless it is absent or, looked at without following a link, a real `kind`: a
 * symlink is `library_symlinked`, anything else in its place `target_unsafe`.
 */
export function assertPlainEntry(path: string, kind: "folder" | "file"): void {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return;
  if (stats.isSymbolicLink()) throw symlinked(path);
  if (kind === "folder" ? !stats.isDirectory() : !stats.isFile())
    throw new SkillshelfError("target_unsafe", `${path} is not a ${kind}`, {
      path,
      details: { kind },
    });
}

// --- internal ---

function assertLibraryInProject(library: string, project: string): void {
  const stats = lstatSync(library, { throwIfNoEntry: false });
  if (stats === undefined || !stats.isSymbolicLink()) return;
  const real = realpathOrUndefined(library);
  const projectReal = realpathOrUndefined(project);
  if (real === undefined || projectReal === undefined || !isInside(projectReal, real))
    throw symlinked(library);
}

function symlinked(path: string): SkillshelfError {
  let target: string;
  try {
    target = readlinkSync(path);
  } catch {
    target = "?";
  }
  return new SkillshelfError(
    "library_symlinked",
    `${path} is a symlink to ${target}; Skillshelf does not write or read through it`,
    {
      path,
      details: { target },
    },
  );
}
