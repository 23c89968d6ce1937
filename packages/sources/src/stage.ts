import { renameSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  copyTree,
  digestTree,
  type PackageSource,
  realpathOrUndefined,
  removeTree,
  resolveContained,
  SkillshelfError,
} from "@skillshelf/core";
import {
  archiveFormat,
  DEFAULT_ARCHIVE_LIMITS,
  type SourceLimits,
  unpackArchive,
} from "./_archive.js";
import { download } from "./_download.js";
import { codedFailure, stagingFolder } from "./_failure.js";
import { DEFAULT_GIT_LIMITS, fetchCommit, remoteCommit, skipGit } from "./_git.js";
import { usesRemoteHelper } from "./source-url.js";
import type { FetchedSource, StagedSource } from "./types.js";

/** How `stageSource` fetches. */
export interface StageOptions {
  /** Where staging folders are made. Default: the OS temporary folder. */
  readonly tempDir?: string | undefined;
  /** Environment variables for `git` (PATH, HOME, proxies). Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Longest a git fetch or a download may take. Default 120 s. */
  readonly timeoutMs?: number | undefined;
  /**
   * How much a source may bring in: the download (an archive, or what git fetches), what it
   * unpacks to (an archive's members, or the checked-out commit) and how many entries. Default
   * for archives 50 MiB, 200 MiB and 10,000; for git 500 MiB, 1 GiB and 100,000.
   */
  readonly limits?: Partial<SourceLimits> | undefined;
  readonly signal?: AbortSignal | undefined;
}

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
    const { commit, digest } = await fetchInto(source, dir, dirname(dir), options);
    return {
      dir,
      ...(digest === undefined ? {} : { digest }),
      source,
      ...(commit === undefined ? {} : { commit }),
      release,
    };
  } catch (error) {
    release();
    throw codedFailure(error);
  }
}

/**
 * The commit a git source's ref names in its repository now (`git ls-remote`, nothing fetched),
 * for `update --check`; `undefined` when the ref is gone. Throws `git_failed`, `git_timeout`,
 * `git_missing` or `source_protocol_refused` like a fetch.
 */
export async function newestCommit(
  source: Extract<PackageSource, { type: "git" }>,
  options: StageOptions = {},
): Promise<string | undefined> {
  if (usesRemoteHelper(source.url))
    throw new SkillshelfError(
      "source_protocol_refused",
      `${source.url} uses a git transport that runs commands; only https, ssh, git and file repositories are asked`,
      { hint: "name the repository by an https://, ssh:// or file:// URL or a path" },
    );
  try {
    return await remoteCommit({
      url: source.url,
      ref: source.ref,
      env: options.env ?? process.env,
      timeoutMs: options.timeoutMs ?? 120_000,
      signal: options.signal,
    });
  } catch (error) {
    throw codedFailure(error);
  }
}

// --- internal ---

/** Fetch `source` into `dir`: its commit when it is a git source, its digest when it was copied. */
async function fetchInto(
  source: PackageSource,
  dir: string,
  container: string,
  options: StageOptions,
): Promise<{ commit?: string; digest?: string }> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  switch (source.type) {
    case "local":
      return { digest: copyTree(existingFolder(source.path), dir, { skip: skipGit }).digest };
    case "git": {
      if (usesRemoteHelper(source.url))
        throw new SkillshelfError(
          "source_protocol_refused",
          `${source.url} uses a git transport that runs commands; only https, ssh, git and file repositories are fetched`,
          { hint: "name the repository by an https://, ssh:// or file:// URL or a path" },
        );
      // the whole commit is checked out beside `dir`, and the folder the source names moved in
      // (the digest that follows checks its symlinks as a copy would)
      const checkout = source.path === undefined ? dir : join(container, "checkout");
      const commit = await fetchCommit({
        url: source.url,
        ref: source.ref,
        dir: checkout,
        gitDir: join(container, "git"),
        env: options.env ?? process.env,
        timeoutMs,
        signal: options.signal,
        limits: { ...DEFAULT_GIT_LIMITS, ...options.limits },
      });
      if (checkout !== dir) renameSync(subfolderOf(checkout, source.path), dir);
      removeTree(join(container, "git"));
      if (checkout !== dir) removeTree(checkout);
      return { commit };
    }
    case "archive": {
      const limits = { ...DEFAULT_ARCHIVE_LIMITS, ...options.limits };
      const signals = [
        AbortSignal.timeout(timeoutMs),
        ...(options.signal === undefined ? [] : [options.signal]),
      ];
      const bytes = await download(source.url, limits.maxDownloadBytes, AbortSignal.any(signals));
      await unpackArchive(bytes, dir, {
        ...limits,
        format: archiveFormat(source.url),
        subfolder: source.path,
      });
      return {};
    }
  }
}

function existingFolder(path: string): string {
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory())
    throw new SkillshelfError("source_missing", `${path} is not a folder`, {
      path,
      hint: "check the path of the package source",
    });
  return path;
}

function subfolderOf(clone: string, path: string | undefined): string {
  if (path === undefined) return clone;
  const cloneReal = realpathOrUndefined(clone) ?? clone;
  const resolved = resolveContained(`${cloneReal}/${path}`, cloneReal, { relocatable: true });
  if (resolved.status === "outside")
    throw new SkillshelfError(
      "tree_link_escape",
      `the folder ${path} leads outside the repository through a symlink`,
      { hint: "name a real folder of the repository" },
    );
  if (resolved.status === "missing" || !statSync(resolved.real).isDirectory())
    throw new SkillshelfError("source_subfolder_missing", `the repository has no folder ${path}`, {
      hint: "check the path in the source",
    });
  return resolved.real;
}
