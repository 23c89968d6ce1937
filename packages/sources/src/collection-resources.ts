import { copyFileSync, type Dirent, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  AGENTS,
  createDiagnostic,
  type Diagnostic,
  digestTree,
  FILE_RESOURCE_KINDS,
  type FileResourceKind,
  identityKey,
  isPackageId,
  parseFrontmatter,
  type ResourcePackageFacts,
  readRegularFile,
  realpathOrUndefined,
  removeTree,
  resolveContained,
  resourceFolder,
  resourcePackageManifestText,
} from "@skillshelf/core";
import { codedFailure, stagingFolder } from "./_failure.js";
import type { StagingArea } from "./collection.js";
import type { FetchedSource, StagedSource } from "./types.js";

/**
 * One prompt template or agent recipe a manifest-less folder or repository offers: its `name`
 * (the id of the package it becomes), description, where it is in the collection (`path`) and
 * where it goes in its package (`within`: its path below its kind's folder, so a template in
 * `commands/git/commit.md` keeps the name `git:commit`).
 */
export interface CollectionResource extends ResourcePackageFacts {
  readonly path: string;
}

/**
 * The prompt templates and agent recipes of a collection: every `*.md` under
 * `commands/`, `prompts/` and each agent's project prompt folder (`.claude/commands/`, …), and
 * under `agents/` and `.claude/agents/`, a few folders deep. A template is named by its path
 * below its folder (`git/commit.md` is `git:commit`) and becomes the package `git-commit`; one
 * whose name cannot be a package id, or whose file is not a readable text inside the collection,
 * is left out and reported (`collection_skill_invalid`).
 */
export function readCollectionResources(
  root: string,
  diagnostics: Diagnostic[],
): CollectionResource[] {
  const found = new Map<string, CollectionResource>();
  for (const kind of FILE_RESOURCE_KINDS)
    for (const folder of LAYOUTS[kind].folders)
      for (const within of markdownFiles(join(root, folder))) {
        const item = readResource(root, { kind, folder, within }, diagnostics);
        if (item !== undefined && !found.has(identityKey(kind, item.name)))
          found.set(identityKey(kind, item.name), item);
      }
  return [...found.values()].sort((a, b) =>
    a.kind === b.kind ? (a.name < b.name ? -1 : 1) : a.kind < b.kind ? 1 : -1,
  );
}

/**
 * Stage one prompt template or agent recipe of a collection as a package of its own: the file at
 * its `within` path and the `plugin.json` core's `resourcePackageManifestText` makes of it, in a
 * folder of `area` named after it (or a staging folder of its own).
 */
export function stageCollectionResource(
  collection: Pick<FetchedSource, "dir" | "source" | "commit" | "mirror">,
  item: CollectionResource,
  options: { readonly tempDir?: string | undefined; readonly area?: StagingArea | undefined } = {},
): StagedSource {
  const { dir, release } =
    options.area !== undefined
      ? {
          dir: join(options.area.dir, `${item.kind}-${item.name}`),
          release: () => removeTree(join(options.area?.dir ?? "", `${item.kind}-${item.name}`)),
        }
      : stagingFolder(options.tempDir, "skillshelf-resource-");
  try {
    const target = join(dir, resourceFolder(item.kind), item.within);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(
      contained(realpathOrUndefined(collection.dir) ?? collection.dir, item.path),
      target,
    );
    writeFileSync(join(dir, "plugin.json"), resourcePackageManifestText(item));
    return {
      dir,
      digest: digestTree(dir).digest,
      source: { ...collection.source, resource: identityKey(item.kind, item.name) },
      ...(collection.commit === undefined ? {} : { commit: collection.commit }),
      ...(collection.mirror === undefined ? {} : { mirror: collection.mirror }),
      release,
    };
  } catch (error) {
    release();
    throw codedFailure(error);
  }
}

// --- internal ---

/** Where a collection keeps one kind's files, and what a person calls one. */
interface FileKindLayout {
  readonly folders: readonly string[];
  readonly noun: string;
}

// its own folders first, then the agents' project ones
const LAYOUTS: { readonly [K in FileResourceKind]: FileKindLayout } = {
  prompt: {
    folders: [
      "commands",
      "prompts",
      ...new Set(AGENTS.flatMap((agent) => agent.projectPromptRoot ?? [])),
    ],
    noun: "prompt template",
  },
  agent: {
    folders: ["agents", ...new Set(AGENTS.flatMap((agent) => agent.projectAgentRoot ?? []))],
    noun: "agent",
  },
};

const MAX_DEPTH = 4;
// a template read to learn its description; larger ones are not templates
const MAX_FILE_BYTES = 1024 * 1024;

/** The `*.md` files below `folder`, `/`-separated and relative to it, a few folders deep. */
function markdownFiles(folder: string): string[] {
  const files: string[] = [];
  const pending: [string, number][] = [["", 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [relative, depth] = next;
    let entries: Dirent[];
    try {
      entries = readdirSync(join(folder, relative), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory() && depth < MAX_DEPTH) pending.push([path, depth + 1]);
      else if ((entry.isFile() || entry.isSymbolicLink()) && /\.md$/i.test(entry.name))
        files.push(path);
    }
  }
  return files.sort();
}

function readResource(
  root: string,
  found: { readonly kind: FileResourceKind; readonly folder: string; readonly within: string },
  diagnostics: Diagnostic[],
): CollectionResource | undefined {
  const path = `${found.folder}/${found.within}`;
  const file = join(root, path);
  const invalid = (problem: string) => {
    diagnostics.push(
      createDiagnostic(
        "warning",
        "collection_skill_invalid",
        `${file} ${problem}; it is left out`,
        {
          path: file,
        },
      ),
    );
    return undefined;
  };
  const base = found.within.replace(/\.md$/i, "");
  const name = base.split("/").join("-");
  if (!isPackageId(name))
    return invalid(`is named ${base.split("/").join(":")}, which cannot be a package id`);
  let text: string;
  try {
    text = readRegularFile(contained(root, path), MAX_FILE_BYTES).toString("utf8");
  } catch {
    return invalid("cannot be read inside the collection");
  }
  const parsed = parseFrontmatter(text, { path: file });
  const description = parsed.ok ? parsed.data.description : undefined;
  return {
    kind: found.kind,
    name,
    version: "0.0.0",
    description:
      typeof description === "string" && description.trim() !== ""
        ? description
        : `The ${LAYOUTS[found.kind].noun} ${base.split("/").join(":")}.`,
    path,
    within: found.within,
  };
}

/** The real file `path` names in the collection, refused when a symlink leads outside it. */
function contained(root: string, path: string): string {
  const resolved = resolveContained(join(root, path), root);
  if (resolved.status !== "inside") throw new Error(`${path} leads outside the collection`);
  return resolved.real;
}
