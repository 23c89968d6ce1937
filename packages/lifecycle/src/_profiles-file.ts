import { join } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  type Environment,
  type PackageScope,
  scopeLibraryDir,
} from "@skillshelf/core";
import { readJsonFile, writeJsonFile } from "./_json-file.js";

/** A scope's profiles.json: its profiles, and (a project's) the skills it marks optional. */
export interface ProfilesFile {
  readonly profiles: Readonly<Record<string, readonly string[]>>;
  readonly optional: readonly string[];
}

/** The project's optional skills (profiles.json's `optional`); none when the file does not read. */
export function optionalSkills(environment: Environment): readonly string[] {
  const read = profilesIn(environment, "project");
  return "problem" in read ? [] : read.optional;
}

/** A scope's profiles.json as read, or why it does not read (`profile_invalid`). */
export function profilesIn(
  environment: Environment,
  scope: PackageScope,
): ProfilesFile | { readonly problem: Diagnostic } {
  const path = profilesPath(environment, scope);
  const read = readJsonFile(path);
  if (read === undefined) return { profiles: {}, optional: [] };
  const value = read.value as
    | { version?: unknown; profiles?: unknown; optional?: unknown }
    | undefined;
  const profiles = value?.profiles as Record<string, unknown> | undefined;
  const names = (list: unknown) =>
    Array.isArray(list) && list.every((one) => typeof one === "string");
  if (
    value?.version !== 1 ||
    typeof profiles !== "object" ||
    profiles === null ||
    !Object.values(profiles).every(names) ||
    (value.optional !== undefined && !names(value.optional))
  )
    return {
      problem: createDiagnostic(
        "error",
        "profile_invalid",
        `${path} is not { "version": 1, "profiles": { "<name>": ["<skill>", …] }, "optional": ["<skill>", …] }`,
        { path },
      ),
    };
  return {
    profiles: profiles as Record<string, readonly string[]>,
    optional: (value.optional as readonly string[] | undefined) ?? [],
  };
}

/** Write a scope's profiles.json (no `optional` when none is). */
export function writeProfiles(
  environment: Environment,
  scope: PackageScope,
  file: ProfilesFile,
): void {
  writeJsonFile(profilesPath(environment, scope), {
    version: 1,
    profiles: file.profiles,
    ...(file.optional.length === 0 ? {} : { optional: file.optional }),
  });
}

function profilesPath(environment: Environment, scope: PackageScope): string {
  return join(scopeLibraryDir(environment, scope), "profiles.json");
}
