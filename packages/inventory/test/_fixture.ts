import {
  digestTree,
  type Environment,
  type PackageScope,
  resolveEnvironment,
} from "@skillshelf/core";
import { observeCopyFacts, type WriteResult } from "@skillshelf/store";
import { installPackage } from "@skillshelf/store/writers";
import {
  type PackageTreeOptions,
  packageTree,
  testdir,
  testEnvironment,
} from "@skillshelf/test-utils";

/** A fresh environment (fake home and project) for one test. */
export function environment(): Environment {
  const { home, cwd, configDir } = testEnvironment();
  return resolveEnvironment({ home, cwd, configDir, env: {} });
}

const FLEET = `---
version: 1
name: release
description: Cut a release.
steps:
  - id: notes
    kind: command
    command: write-notes
---
Release {{version}}.
`;

/** The inventory fixture: one skill, one prompt template and one fleet in one plugin. */
export function kitPackage(options: Partial<PackageTreeOptions> = {}): PackageTreeOptions {
  return {
    id: "kit",
    skills: ["kit-skill"],
    prompts: ["help"],
    extension: { resources: { skills: "skills", prompts: "prompts", fleets: "fleets" } },
    ...options,
    files: { "fleets/release.md": FLEET, ...options.files },
  };
}

/** Install a package folder built from `options` into a scope, as a reviewed plan would. */
export function install(
  env: Environment,
  scope: PackageScope,
  options: PackageTreeOptions,
): WriteResult {
  const dir = testdir(packageTree(options));
  return installPackage({
    environment: env,
    scope,
    staged: { dir, digest: digestTree(dir).digest },
    origin: { source: { type: "local", path: dir } },
    reviewed: observeCopyFacts({ environment: env, scope, id: options.id }),
  });
}
