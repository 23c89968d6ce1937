import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  digestTree,
  type Environment,
  type PackageScope,
  resolveEnvironment,
} from "@skillshelf/core";
import { applyLifecycle, type LifecycleRequest, planLifecycle } from "@skillshelf/lifecycle";
import { discoverLibrary, scopeIndexPath } from "@skillshelf/sources";
import {
  type PackageTreeOptions,
  packageTree,
  testdir,
  testEnvironment,
} from "@skillshelf/test-utils";

/** A fresh environment (fake home and project) for one test; `git` runs with a clean config. */
export function environment(): Environment {
  const { home, cwd, configDir } = testEnvironment();
  return resolveEnvironment({ home, cwd, configDir, env: {} });
}

/** A package folder of our format, written to its own temp dir, with its digest. */
function packageFolder(options: PackageTreeOptions): { dir: string; digest: string } {
  const dir = testdir(packageTree(options));
  return { dir, digest: digestTree(dir).digest };
}

/**
 * Write the user scope's `library.yaml` offering each package folder (digests computed now), and
 * return the folders by id.
 */
export function offer(
  env: Environment,
  packages: readonly PackageTreeOptions[],
): Record<string, { dir: string; digest: string }> {
  const folders: Record<string, { dir: string; digest: string }> = {};
  const lines = ["entries:"];
  for (const options of packages) {
    const folder = packageFolder(options);
    folders[options.id] = folder;
    lines.push(
      `  - kind: ${options.kind ?? "plugin"}`,
      `    name: ${options.id}`,
      `    description: The ${options.id} package.`,
      `    sourceUrl: ${folder.dir}`,
      `    version: ${options.version ?? "1.0.0"}`,
      `    sha256: ${folder.digest}`,
      ...(options.requires === undefined ? [] : [`    requires: [${options.requires.join(", ")}]`]),
    );
  }
  const path = scopeIndexPath(env, "user");
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, `${lines.join("\n")}\n`);
  return folders;
}

/** Plan and apply in one go; the result of applying. */
export async function change(
  env: Environment,
  request: Omit<LifecycleRequest, "environment">,
): Promise<Awaited<ReturnType<typeof applyLifecycle>>> {
  const plan = await planLifecycle({
    ...request,
    environment: env,
    discovery: discoverLibrary(env),
  });
  if (!plan.applicable)
    throw new Error(`plan refused: ${plan.steps.map((step) => step.refusal?.code).join(", ")}`);
  return applyLifecycle(plan);
}

/** Install `options` from a local folder into a scope through a plan. */
export async function installFolder(
  env: Environment,
  scope: PackageScope,
  options: PackageTreeOptions,
): Promise<void> {
  const { dir } = packageFolder(options);
  await change(env, { operation: "install", targets: [dir], scope, force: true });
}
