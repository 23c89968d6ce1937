import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  compareText,
  type Environment,
  identityKey,
  type ResourceKind,
  readRegularFile,
  sha256,
} from "@skillshelf/core";
import { beginPass } from "@skillshelf/resources";
import type { SkillCache } from "@skillshelf/skills-loader";
import { type PackageManifest, packageFolderRoots } from "@skillshelf/store";

/**
 * What an update changes in what a model is given: resources added or removed,
 * changed descriptions, changed tool grants (a skill's `allowed-tools`, an agent's `tools`),
 * executable files added or changed, a changed licence. Nothing else is reported.
 */
export interface CapabilityDiff {
  readonly added: readonly ResourceName[];
  readonly removed: readonly ResourceName[];
  readonly descriptions: readonly (ResourceName & { before: string; after: string })[];
  readonly tools: readonly (ResourceName & {
    before: readonly string[];
    after: readonly string[];
  })[];
  readonly executables: readonly { path: string; change: "added" | "changed" }[];
  readonly license?: { before: string | undefined; after: string | undefined } | undefined;
  /**
   * The trust given to the package (bound to its files) ends with this change: its resources are
   * no longer given to a model until it is trusted again.
   */
  readonly trustEnds?: true | undefined;
  /** Nothing above changed. */
  readonly unchanged: boolean;
}

/** A resource by kind and name. */
export interface ResourceName {
  readonly kind: ResourceKind;
  readonly name: string;
}

/** One side of a diff: a package folder and its manifest. */
export interface PackageTree {
  readonly id: string;
  readonly dir: string;
  readonly manifest: PackageManifest;
}

/**
 * Compare what two versions of a package give a model; skill files are read through `cache` when
 * given (a plan's, which has read the staged version's already).
 */
export function capabilityDiff(
  environment: Environment,
  before: PackageTree,
  after: PackageTree,
  cache?: SkillCache,
): CapabilityDiff {
  const old = capabilities(environment, before, cache);
  const now = capabilities(environment, after, cache);
  const added: ResourceName[] = [];
  const removed: ResourceName[] = [];
  const descriptions: (ResourceName & { before: string; after: string })[] = [];
  const tools: (ResourceName & { before: readonly string[]; after: readonly string[] })[] = [];
  for (const [key, resource] of now.resources) {
    const previous = old.resources.get(key);
    if (previous === undefined) {
      added.push(resource.name);
      continue;
    }
    if (previous.description !== resource.description)
      descriptions.push({
        ...resource.name,
        before: previous.description,
        after: resource.description,
      });
    if (previous.tools.join("\n") !== resource.tools.join("\n"))
      tools.push({ ...resource.name, before: previous.tools, after: resource.tools });
  }
  for (const [key, resource] of old.resources)
    if (!now.resources.has(key)) removed.push(resource.name);
  const executables: { path: string; change: "added" | "changed" }[] = [];
  for (const [path, digest] of now.executables) {
    const previous = old.executables.get(path);
    if (previous === undefined) executables.push({ path, change: "added" });
    else if (previous !== digest) executables.push({ path, change: "changed" });
  }
  const license =
    before.manifest.license === after.manifest.license
      ? undefined
      : { before: before.manifest.license, after: after.manifest.license };
  return {
    added,
    removed,
    descriptions,
    tools,
    executables,
    ...(license === undefined ? {} : { license }),
    unchanged:
      added.length + removed.length + descriptions.length + tools.length + executables.length ===
        0 && license === undefined,
  };
}

// --- internal ---

interface Capability {
  readonly name: ResourceName;
  readonly description: string;
  readonly tools: readonly string[];
}

function capabilities(
  environment: Environment,
  tree: PackageTree,
  cache: SkillCache | undefined,
): { resources: Map<string, Capability>; executables: Map<string, string> } {
  const resources = new Map<string, Capability>();
  const pass = beginPass(environment, {
    roots: packageFolderRoots({ ...tree, record: undefined }),
    trustImports: true,
    cache,
  });
  for (const resource of pass.admission().resources) {
    if (resource.availability === "shadowed" || resource.availability === "invalid") continue;
    const { kind, name } = resource;
    resources.set(identityKey(kind, name), {
      name: { kind, name },
      description: resource.description,
      tools: [...resource.tools].sort(),
    });
  }
  return { resources, executables: executableFiles(tree.dir) };
}

/** Every regular file with an executable bit, by `/`-separated path, with its content digest. */
function executableFiles(root: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string, prefix: string) => {
    // the listing tells folders and files apart: only a file is stat-ed, for its mode
    const entries = readdirSync(dir, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => compareText(a.name, b.name))) {
      if (entry.name === ".git") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, `${prefix}${entry.name}/`);
      else if (entry.isFile() && (lstatSync(path).mode & 0o111) !== 0)
        found.set(`${prefix}${entry.name}`, sha256(readRegularFile(path)));
    }
  };
  walk(root, "");
  return found;
}
