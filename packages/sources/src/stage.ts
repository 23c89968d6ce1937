import { dirname } from "node:path";
import { digestTree, type PackageSource } from "@skillshelf/core";
import { codedFailure, stagingFolder } from "./_failure.js";
import type { StageOptions } from "./fetchers/_fetcher.js";
import { fetcherOf } from "./fetchers/index.js";
import type { FetchedSource, StagedSource } from "./types.js";

export type { StageOptions } from "./fetchers/_fetcher.js";

/**
 * Fetch a package source into a private staging folder and digest it: a local folder is copied,
 * a git repository is fetched shallowly at its ref (hooks off, no prompts, a timeout) and its
 * subfolder copied, an HTTP(S) `.tar.gz` is downloaded and unpacked after every member passed
 * its checks. `.git` folders are left out. Symlinks must stay inside the package at every step
 * of their resolution (core's `resolveContained`). On any failure nothing is left behind and a
 * `SkillshelfError` with a code says why (a file system failure is `stage_failed` naming the
 * path); on success call `release()` (it is idempotent) when the staged files are no longer needed.
 */
export async function stageSource(
  source: PackageSource,
  options: StageOptions = {},
): Promise<StagedSource> {
  const fetched = await fetchSource(source, options);
  try {
    return digested(fetched);
  } catch (error) {
    fetched.release();
    throw error;
  }
}

/**
 * `fetched` with its tree digest: a copied tree was digested as it was written, a checked-out or
 * unpacked one is read now (throwing the walk's `SkillshelfError` for a tree it refuses).
 */
export function digested(fetched: FetchedSource): StagedSource {
  try {
    return { ...fetched, digest: fetched.digest ?? digestTree(fetched.dir).digest };
  } catch (error) {
    throw codedFailure(error);
  }
}

/**
 * `stageSource` without reading a checked-out or unpacked tree for its digest, for a caller that
 * digests only parts of it (a collection's skills, each a package of its own); every member of
 * an archive was checked before it was written, and whatever part is digested is checked then.
 */
export async function fetchSource(
  source: PackageSource,
  options: StageOptions = {},
): Promise<FetchedSource> {
  const { dir, release } = stagingFolder(options.tempDir, "skillshelf-stage-");
  try {
    const { commit, digest, signers, commits } = await fetcherOf(source.type).fetch(
      source,
      { dir, container: dirname(dir) },
      options,
    );
    return {
      dir,
      ...(digest === undefined ? {} : { digest }),
      source,
      ...(commit === undefined ? {} : { commit }),
      ...(signers === undefined ? {} : { signers }),
      ...(commits === undefined ? {} : { commits }),
      release,
    };
  } catch (error) {
    release();
    throw codedFailure(error);
  }
}
