import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  digestTree,
  type Environment,
  isSkillshelfError,
  type PackageScope,
  resolveEnvironment,
} from "@skillshelf/core";
import {
  type CopyFacts,
  observeCopyFacts,
  type PackageOrigin,
  type WriteResult,
} from "@skillshelf/store";
import { installPackage, removePackage, setEnabled } from "@skillshelf/store/writers";
import {
  type PackageTreeOptions,
  packageTree,
  testdir,
  testEnvironment,
} from "@skillshelf/test-utils";

/** A fresh environment (fake home and project) for one test. */
export function storeEnvironment(): Environment {
  const { home, cwd, configDir } = testEnvironment();
  return resolveEnvironment({ home, cwd, configDir, env: {} });
}

/** A package folder staged in its own temp dir, with its digest. */
export function stagePackage(options: PackageTreeOptions): { dir: string; digest: string } {
  const root = testdir(packageTree(options));
  return { dir: root, digest: digestTree(root).digest };
}

/** A local origin for a staged folder. */
export function localOrigin(dir: string): PackageOrigin {
  return { source: { type: "local", path: dir } };
}

/** Install a package the way a plan would: observe the facts, then install against them. */
export function install(
  environment: Environment,
  scope: PackageScope,
  options: PackageTreeOptions,
): WriteResult {
  const staged = stagePackage(options);
  const reviewed = observeCopyFacts({ environment, scope, id: options.id });
  return installPackage({ environment, scope, staged, origin: localOrigin(staged.dir), reviewed });
}

/** The input installing a staged package against the copy's current facts; `extra` adds or overrides fields. */
export function installInput(
  environment: Environment,
  scope: PackageScope,
  id: string,
  staged: Parameters<typeof installPackage>[0]["staged"],
  extra: Partial<Parameters<typeof installPackage>[0]> = {},
): Parameters<typeof installPackage>[0] {
  return {
    environment,
    scope,
    staged,
    origin: localOrigin(staged.dir),
    reviewed: facts(environment, scope, id),
    ...extra,
  };
}

/** Install a staged package against the copy's current facts; `extra` adds or overrides input fields. */
export function installStaged(
  environment: Environment,
  scope: PackageScope,
  id: string,
  staged: Parameters<typeof installPackage>[0]["staged"],
  extra: Partial<Parameters<typeof installPackage>[0]> = {},
): WriteResult {
  return installPackage(installInput(environment, scope, id, staged, extra));
}

/** The facts of a copy now. */
export function facts(environment: Environment, scope: PackageScope, id: string): CopyFacts {
  return observeCopyFacts({ environment, scope, id });
}

/** The `code` of the SkillshelfError `action` throws, or `undefined` if it does not throw. */
export function errorOf(
  action: () => unknown,
): { code: string; details: unknown; hint: string } | undefined {
  try {
    action();
  } catch (error) {
    if (isSkillshelfError(error))
      return { code: error.code, details: error.details, hint: error.hint };
    throw error;
  }
  return undefined;
}

/** Switch a copy on or off against its current facts. */
export function switchCopy(
  environment: Environment,
  scope: PackageScope,
  id: string,
  enabled: boolean,
): WriteResult {
  return setEnabled({ environment, scope, id, enabled, reviewed: facts(environment, scope, id) });
}

/** Remove a copy against its current facts. */
export function remove(environment: Environment, scope: PackageScope, id: string): WriteResult {
  return removePackage({ environment, scope, id, reviewed: facts(environment, scope, id) });
}

/**
 * Write a step journal as an interrupted writer leaves one, committing nothing (its state digest
 * matches no state): `trees` fill in the moves' records, `links` the link moves as given.
 */
export function writeStepJournal(
  dir: string,
  trees: readonly Record<string, unknown>[],
  links: readonly Record<string, unknown>[] = [],
): void {
  const journal = {
    version: 2,
    pid: 1,
    operation: "install",
    committedState: "0".repeat(64),
    trees: trees.map((tree) => ({ before: null, after: null, ...tree })),
    lock: { packages: [], links: [] },
    links,
  };
  writeFileSync(join(dir, ".@step.journal.json"), JSON.stringify(journal));
}

/** What writers left in a scope folder: its entries but the cache a read writes (`.remembered.json`). */
export function writtenEntries(dir: string): string[] {
  return readdirSync(dir).filter((name) => name !== ".remembered.json");
}
