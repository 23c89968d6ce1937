import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import {
  copyTree,
  type Environment,
  isInside,
  randomHex,
  removeTree,
  SkillshelfError,
} from "@skillshelf/core";
import { download } from "./_download.js";
import { skipGit } from "./_git.js";
import { siteFolderOf } from "./_site-folder.js";
import { fetchSignal, httpOf } from "./fetchers/_fetcher.js";
import { describeSource } from "./fetchers/index.js";
import { MAX_INDEX_BYTES } from "./index-file.js";
import { offeredSkills, offersSkills } from "./offered-skills.js";
import { assertIndex, locateIndex, remoteCache, type ScopeSource } from "./scope-sources.js";
import { parseSourceSpec, parseSourceUrl } from "./source-url.js";
import { type StageOptions, stageSource } from "./stage.js";
import type { IndexRow } from "./types.js";

/** A remote index as `sources.json` records it. */
export interface RemoteIndex {
  readonly url: string;
  readonly ref?: string | undefined;
}

// an index file served on its own, rather than a repository holding one
const INDEX_FILE_URL = /^https:\/\/[^#]+\.(json|ya?ml)$/i;

/**
 * Read what `sources add` was given as a remote index, or `undefined` for a local index: a site
 * with a `.well-known` skills index or an OCI repository (their skills become the index), an
 * `https://` URL of an index file, or a git repository (`owner/repo`, any git URL, `#ref`). A
 * folder holding a `.well-known` skills index and no package index (what `publish site:DIR`
 * writes), or that index file itself, is a site too: its `file://` URL.
 */
export function parseRemoteIndex(text: string, cwd: string): RemoteIndex | undefined {
  const site = siteFolderAt(resolve(cwd, text));
  if (site !== undefined) return { url: pathToFileURL(site).href };
  const parsed = parseSourceSpec(text, cwd);
  // a site's .well-known index or an OCI repository: the skills they offer become the index
  if (parsed.ok && offersSkills(parsed.source)) return { url: describeSource(parsed.source) };
  if (INDEX_FILE_URL.test(text)) return { url: text };
  if (!parsed.ok || parsed.source.type !== "git") return undefined;
  if (parsed.source.path !== undefined)
    throw new SkillshelfError(
      "index_in_subfolder",
      `${text} names a subfolder; an index is read from the repository's root`,
    );
  return {
    url: parsed.source.url,
    ...(parsed.source.ref === undefined ? {} : { ref: parsed.source.ref }),
  };
}

/**
 * Fetch a remote index into its cache folder under the user library and check it is an index
 * before it replaces the last fetch (its row count comes back): a repository is fetched with git (hooks off, shallow, as any
 * source), an index file downloaded. `index_missing` when the repository holds no index file,
 * `index_invalid` when the file is not an index; the previous fetch is kept either way.
 */
export async function fetchRemoteIndex(
  environment: Environment,
  remote: RemoteIndex,
  options: StageOptions = {},
): Promise<{ readonly cache: string; readonly index: string; readonly rows: number }> {
  const cache = remoteCache(environment, remote.url, remote.ref);
  mkdirSync(dirname(cache), { recursive: true });
  const fresh = `${cache}.fetch-${process.pid}-${randomHex(4)}`;
  try {
    const offering = parseSourceUrl(remote.url, environment.cwd);
    if (offering.ok && offersSkills(offering.source)) {
      const rows = await offeredSkills(offering.source, options);
      mkdirSync(fresh);
      writeFileSync(`${fresh}${sep}library.json`, JSON.stringify(rows, null, 2));
    } else if (INDEX_FILE_URL.test(remote.url)) {
      const bytes = await download(httpOf(options), remote.url, {
        maxBytes: MAX_INDEX_BYTES,
        signal: fetchSignal(options),
        credentials: options.headers,
      });
      mkdirSync(fresh);
      // kept under a name `locateIndex` finds, whatever the URL calls it (a marketplace is told
      // by its `plugins` list)
      const yaml = /\.ya?ml$/i.test(new URL(remote.url).pathname);
      writeFileSync(`${fresh}${sep}library.${yaml ? "yaml" : "json"}`, bytes);
    } else {
      const { url, ref } = remote;
      const staged = await stageSource(
        { type: "git", url, ...(ref === undefined ? {} : { ref }) },
        options,
      );
      try {
        copyTree(staged.dir, fresh, { skip: skipGit });
      } finally {
        staged.release();
      }
    }
    const index = locateIndex(fresh);
    if (index === undefined)
      throw new SkillshelfError("index_missing", `${remote.url} holds no package index`, {
        details: { url: remote.url },
      });
    const { rows } = assertIndex(index, remote.url);
    const aside = `${cache}.old-${process.pid}-${randomHex(4)}`;
    try {
      renameSync(cache, aside);
    } catch {
      // no earlier fetch
    }
    renameSync(fresh, cache);
    removeTree(aside);
    return { cache, index: `${cache}${index.slice(fresh.length)}`, rows: rows.length };
  } finally {
    removeTree(fresh);
  }
}

/**
 * The rows of a fetched git index as the repository offers them: a plugin source relative to the
 * index (a folder of the checkout) becomes that folder of the repository, at the same ref, so an
 * install fetches it from there and the lock records the repository, never the cache.
 */
export function rowsFromRepository(
  rows: readonly IndexRow[],
  source: Extract<ScopeSource, { type: "remote" }>,
): IndexRow[] {
  if (INDEX_FILE_URL.test(source.url)) return [...rows];
  return rows.map((row) => {
    if (row.source.type !== "local" || !isInside(source.cache, row.source.path)) return row;
    const path = relative(source.cache, row.source.path).split(sep).join("/");
    return {
      ...row,
      source: {
        type: "git",
        url: source.url,
        ...(source.ref === undefined ? {} : { ref: source.ref }),
        ...(path === "" ? {} : { path }),
      },
    };
  });
}

// --- internal ---

/** The site folder `path` is (or whose `.well-known` index it is), unless it holds a package index of its own. */
function siteFolderAt(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const site = siteFolderOf(pathToFileURL(path));
  const ownIndex = statSync(path).isDirectory() ? locateIndex(path) : undefined;
  return site !== undefined && ownIndex === undefined ? site : undefined;
}
