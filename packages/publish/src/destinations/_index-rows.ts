import { existsSync } from "node:fs";
import { join, posix } from "node:path";
import { normalizeRelativePath, readRegularFile, SkillshelfError, sha256 } from "@skillshelf/core";
import {
  type PinnedRow,
  readCollection,
  stageCollectionSkill,
  writeIndexRows,
} from "@skillshelf/sources";
import type { PublishedSkill } from "../_publishable.js";

// the index a repository keeps at its root, found without being named
const ROOT_INDEXES = ["library.yaml", "library.json"];

/**
 * The index path `named` (`--index`) as a `/`-separated path from the repository's root, or
 * `undefined` when none is named; one that leaves the repository is `publish_destination_invalid`.
 */
export function namedIndex(named: string | undefined): string | undefined {
  if (named === undefined) return undefined;
  const inside = normalizeRelativePath(named);
  if (inside === undefined || inside === ".")
    throw new SkillshelfError(
      "publish_destination_invalid",
      `${named} is not a file inside the repository; --index takes a path from its root`,
      { details: { index: named } },
    );
  return inside;
}

/** The index of the clone `work` to keep in sync: `named`, else its root's `library.yaml` (`library.json`) when it has one. */
export function repositoryIndex(work: string, named: string | undefined): string | undefined {
  return named ?? ROOT_INDEXES.find((name) => existsSync(join(work, name)));
}

/**
 * Write the rows of `skills`, as they now are in the clone's `folder`, into its index: each row
 * pinned to what an install of that folder records (its version, the tree digest of the skill
 * package it becomes), its source the folder relative to the index, which a `sources add` of the
 * repository reads at the commit it fetched. Returns the index file's sha256.
 */
export async function syncRepositoryIndex(options: {
  readonly work: string;
  readonly folder: string;
  readonly index: string;
  readonly skills: readonly PublishedSkill[];
  readonly tempDir?: string | undefined;
}): Promise<string> {
  const { work, folder, index, skills } = options;
  const parent = join(work, ...folder.split("/"));
  const found = readCollection(parent).skills;
  const rows = skills.map((published): PinnedRow => {
    const skill = found.find((one) => one.name === published.name && one.path === published.name);
    if (skill === undefined) throw new Error(`${published.name} was not written into ${parent}`);
    const staged = stageCollectionSkill(
      { dir: parent, source: { type: "local", path: parent } },
      skill,
      { tempDir: options.tempDir },
    );
    try {
      return {
        kind: "skill",
        name: skill.name,
        description: skill.description,
        version: skill.version,
        sourceUrl: sourceBeside(index, `${folder}/${skill.name}`),
        sha256: staged.digest,
        requires: [],
      };
    } finally {
      staged.release();
    }
  });
  const file = join(work, ...index.split("/"));
  await writeIndexRows(file, rows);
  return sha256(readRegularFile(file));
}

// --- internal ---

/** The path `target` (from the repository's root) as the index at `index` writes it: `./…`. */
function sourceBeside(index: string, target: string): string {
  const written = posix.relative(posix.dirname(index), target);
  return written.startsWith("..") ? written : `./${written}`;
}
