import { renameSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { removeTree, SkillshelfError, type SourceOf } from "@skillshelf/core";
import { commitSigner, fetchCommit, remoteCommit } from "../_git.js";
import { DEFAULT_GIT_LIMITS } from "../_git-limits.js";
import { mirrored } from "../mirrors.js";
import { DEFAULT_FETCH_TIMEOUT_MS, type Fetcher, type StageOptions } from "./_fetcher.js";
import { parseGit, usesRemoteHelper } from "./_git-syntax.js";
import { urlPlace } from "./_place.js";
import { realSubfolder, subfolderOuter, subfolderWithin } from "./_subfolder.js";

/**
 * A git repository of any host: its ref fetched shallowly (hooks off, no prompts, a timeout, an
 * allow-listed environment), the folder the source names moved into place; asked for its newest
 * commit with `git ls-remote`.
 */
export const GIT_FETCHER: Fetcher<"git"> = {
  syntax:
    "a git repository (git+<url or path>, a URL ending in .git, ssh://, git@host:, a GitHub, GitLab, Bitbucket or Codeberg page; //<subfolder>, #<ref>)",
  parse: parseGit,
  fetch: async (source, into, options) => {
    refuseRemoteHelper(gitOptions(source, options).url);
    // the whole commit is checked out beside `dir`, and the folder the source names moved in
    // (the digest that follows checks its symlinks as a copy would)
    const checkout = source.path === undefined ? into.dir : join(into.container, "checkout");
    const gitDir = join(into.container, "git");
    const { commit, alongside: signer } = await fetchCommit({
      ...gitOptions(source, options),
      dir: checkout,
      gitDir,
      limits: { ...DEFAULT_GIT_LIMITS, ...options.limits },
      // a commit signed with an SSH key (git's gpg.format=ssh) names its signer for all it holds
      alongside: (commit) =>
        commitSigner({ ...gitOptions(source, options), gitDir, commit, tempDir: options.tempDir }),
    });
    if (source.path !== undefined)
      renameSync(realSubfolder(checkout, source.path, "the repository"), into.dir);
    removeTree(gitDir);
    if (checkout !== into.dir) removeTree(checkout);
    return { commit, ...(signer === undefined ? {} : { signers: { ".": signer } }) };
  },
  origin: (source, commit) => ({
    kind: "git",
    url: source.url,
    ...(source.ref === undefined ? {} : { ref: source.ref }),
    ...(commit === undefined ? {} : { commit }),
  }),
  describe: (source) =>
    `${source.url}${source.path === undefined ? "" : `//${source.path}`}${source.ref === undefined ? "" : `#${source.ref}`}`,
  within: subfolderWithin,
  outer: subfolderOuter,
  atRef: (source, ref) => ({ ...source, ref }),
  pinnedAt: (source, commit) => ({ ...source, ref: commit }),
  place: (source) => urlPlace(source.url),
  pinned: (source) => /^[0-9a-f]{40,64}$/.test(source.ref ?? ""),
  packageUrl: (source, commit) => {
    const github = /github\.com[/:]([^/]+)\/([^/]+?)(\.git)?$/.exec(source.url);
    return github === null
      ? undefined
      : {
          type: "github",
          namespace: github[1],
          name: github[2],
          version: commit,
          subpath: source.path,
        };
  },
  repository: (source) => source.url,
  folderOnMachine: (source) => {
    if (source.url.startsWith("file:"))
      return URL.canParse(source.url) ? fileURLToPath(source.url) : undefined;
    return isAbsolute(source.url) ? source.url : undefined;
  },
  newest: async (source, options) => {
    refuseRemoteHelper(gitOptions(source, options).url);
    return remoteCommit(gitOptions(source, options));
  },
  upstreamUrl: (source) => (isAbsolute(source.url) ? undefined : source.url),
};

/**
 * How git is run for `source`: its URL (its mirror's, when a mirror rule rewrites it) and ref,
 * the caller's environment, timeout and signal.
 */
function gitOptions(source: SourceOf<"git">, options: StageOptions) {
  return {
    url: mirrored(source.url, options.mirrors)?.url ?? source.url,
    ref: source.ref,
    env: options.env ?? process.env,
    timeoutMs: options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS,
    signal: options.signal,
  };
}

function refuseRemoteHelper(url: string): void {
  if (usesRemoteHelper(url))
    throw new SkillshelfError(
      "source_protocol_refused",
      `${url} uses a git transport that runs commands; only https, ssh, git and file repositories are fetched`,
    );
}
