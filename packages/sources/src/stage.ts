import { dirname } from "node:path";
import { digestTree, type PackageSource } from "@skillshelf/core";
import { codedFailure, stagingFolder } from "./_failure.js";
import type { StageOptions } from "./fetchers/_fetcher.js";
import { realSubfolder } from "./fetchers/_subfolder.js";
import { describeSource, fetcherOf, sourceMirror } from "./fetchers/index.js";
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
 * The folder `path` (`/`-separated; `.` for all) of `whole`, fetched already, as the fetch of
 * `source` (a source narrowed to that folder of `whole`'s): its commit, and its signers as seen
 * from it. Its files stay `whole`'s, which releases them. Refused like a fetch of `source` when the
 * folder is missing or leads out of `whole` (`source_subfolder_missing`, `tree_link_escape`).
 */
export function fetchedWithin(
  whole: FetchedSource,
  path: string,
  source: PackageSource,
): FetchedSource {
  const commit = whole.commits?.[path] ?? whole.commit;
  const signers = signersWithin(whole.signers, path);
  return {
    dir: path === "." ? whole.dir : realSubfolder(whole.dir, path, describeSource(whole.source)),
    source,
    ...(commit === undefined ? {} : { commit }),
    ...(signers === undefined ? {} : { signers }),
    ...(whole.mirror === undefined ? {} : { mirror: whole.mirror }),
    release: () => undefined,
  };
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
    const mirror = sourceMirror(source, options);
    const { commit, digest, signers, commits, findings } = await fetcherOf(source.type).fetch(
      source,
      { dir, container: dirname(dir) },
      options,
    );
    return {
      dir,
      ...(mirror === undefined ? {} : { mirror }),
      ...(digest === undefined ? {} : { digest }),
      source,
      ...(commit === undefined ? {} : { commit }),
      ...(signers === undefined ? {} : { signers }),
      ...(commits === undefined ? {} : { commits }),
      ...(findings === undefined ? {} : { findings }),
      release,
    };
  } catch (error) {
    release();
    throw codedFailure(error);
  }
}

// --- internal ---

/**
 * Who signed what inside the folder `path`, relative to it: the nearest signer of a folder
 * holding it as `.`, and those of the folders inside it.
 */
function signersWithin(
  signers: FetchedSource["signers"],
  path: string,
): Record<string, string> | undefined {
  if (signers === undefined || path === ".") return signers;
  const within: Record<string, string> = {};
  // the deepest folder holding `path` is the one that signs it
  let depth = -1;
  for (const [folder, signer] of Object.entries(signers)) {
    if (folder.startsWith(`${path}/`)) within[folder.slice(path.length + 1)] = signer;
    const holds = folder === "." || folder === path || path.startsWith(`${folder}/`);
    const its = folder === "." ? 0 : folder.split("/").length;
    if (holds && its > depth) {
      depth = its;
      within["."] = signer;
    }
  }
  return Object.keys(within).length === 0 ? undefined : within;
}
