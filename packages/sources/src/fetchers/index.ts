import { type PackageSource, type SourceOf, type SourceType, sameJson } from "@skillshelf/core";
import { codedFailure } from "../_failure.js";
import { mirrorFor } from "../mirrors.js";
import type { Fetcher, PackageUrlParts, SourceOrigin, StageOptions } from "./_fetcher.js";
import { ARCHIVE_FETCHER } from "./archive.js";
import { GIT_FETCHER } from "./git.js";
import { LOCAL_FETCHER } from "./local.js";
import { MCP_FETCHER } from "./mcp.js";
import { NPM_FETCHER } from "./npm.js";
import { OCI_FETCHER } from "./oci.js";
import { WELL_KNOWN_FETCHER } from "./well-known.js";

/** Every kind of package source and what Skillshelf does with it: one entry each. */
export const SOURCE_FETCHERS: { readonly [T in SourceType]: Fetcher<T> } = {
  // asked in this order to parse a source text: an archive's URL before a repository page of the
  // same host; a site (its root, its .well-known URLs, a file:// folder holding a .well-known
  // index) before git, which takes every other file:// URL; a folder's path last (it takes any
  // text that is no URL)
  archive: ARCHIVE_FETCHER,
  "well-known": WELL_KNOWN_FETCHER,
  git: GIT_FETCHER,
  npm: NPM_FETCHER,
  oci: OCI_FETCHER,
  mcp: MCP_FETCHER,
  local: LOCAL_FETCHER,
};

/** The fetcher of one type of source. */
export function fetcherOf<T extends SourceType>(type: T): Fetcher<T> {
  return SOURCE_FETCHERS[type];
}

/** Where a copy installed from `source` at `commit` came from (inventory's `origin`). */
export function sourceOrigin(source: PackageSource, commit: string | undefined): SourceOrigin {
  return fetcherOf(source.type).origin(source, commit);
}

/** A revision of `source` (the lock's `commit`) as a person reads it: `commit 1a2b3c4d5e6f`, `version 1.2.0`. */
export function revisionText(source: PackageSource, revision: string): string {
  return fetcherOf(source.type).revisionText?.(revision) ?? `commit ${revision.slice(0, 12)}`;
}

/** A source as a user types it: a folder's path, or a URL with `//subfolder` and `#ref`. */
export function describeSource(source: PackageSource): string {
  return fetcherOf(source.type).describe(source);
}

/** `source` narrowed to the folder `path` (`/`-separated) inside what it names; `.` is itself. */
export function sourceWithin(source: PackageSource, path: string): PackageSource {
  return path === "." ? source : fetcherOf(source.type).within(source, path);
}

/**
 * The source one fetch of which holds `source`'s folder among others, and that folder (`.` for
 * the whole); `undefined` when a fetch of `source` brings in only its own folder.
 */
export function sourceOuter(
  source: PackageSource,
): { readonly source: PackageSource; readonly path: string } | undefined {
  return fetcherOf(source.type).outer?.(source as never);
}

/** `source` at another ref, or as it is when it has no refs (`update --ref`). */
export function sourceAtRef(source: PackageSource, ref: string): PackageSource {
  return fetcherOf(source.type).atRef?.(source, ref) ?? source;
}

/** `source` fetched at the commit a lock recorded, or as it is when it has no commits. */
export function sourcePinnedAt(source: PackageSource, commit: string | undefined): PackageSource {
  if (commit === undefined) return source;
  return fetcherOf(source.type).pinnedAt?.(source, commit) ?? source;
}

/** `text` read as a source of the kind `type` alone, or `undefined` when it is not one. */
export function parseSourceAs<T extends SourceType>(
  type: T,
  text: string,
  baseDir: string,
): SourceOf<T> | undefined {
  const parsed = fetcherOf(type).parse(text.trim(), baseDir);
  return parsed?.ok === true && parsed.source.type === type
    ? (parsed.source as SourceOf<T>)
    : undefined;
}

/** Where `source` is, as a policy names places (`host/owner/repo`, `npm:<name>`, `local:<path>`). */
export function sourcePlace(source: PackageSource): string {
  return fetcherOf(source.type).place(source as never);
}

/** Whether `source` names fixed content by itself (a commit, an exact version, a digest). */
export function isSourcePinned(source: PackageSource): boolean {
  return fetcherOf(source.type).pinned(source as never);
}

/** The package URL's parts of a copy from `source` at `commit`, or `undefined` for a generic one. */
export function sourcePackageUrl(
  source: PackageSource,
  commit: string | undefined,
): PackageUrlParts | undefined {
  return fetcherOf(source.type).packageUrl?.(source as never, commit);
}

/** The repository `source` is in, when it is one (a bill of materials' VCS reference). */
export function sourceRepository(source: PackageSource): string | undefined {
  return fetcherOf(source.type).repository?.(source as never);
}

/** The command line fetching `source` starts (an MCP server over stdio), if any. */
export function sourceCommand(source: PackageSource): string | undefined {
  return fetcherOf(source.type).command?.(source as never);
}

/** The folder on this machine `source` reads from (a folder, a repository on disk), if any. */
export function sourceFolderOnMachine(source: PackageSource): string | undefined {
  return fetcherOf(source.type).folderOnMachine?.(source as never);
}

/** The folder on this machine `source` is, when it is read where it is rather than fetched. */
export function folderInPlace(source: PackageSource): string | undefined {
  return fetcherOf(source.type).readInPlace?.(source);
}

/**
 * True when `source` already names `commit` itself (pinned to it), rather than a ref that moves;
 * never for a kind of source that has no commits.
 */
export function isPinnedTo(source: PackageSource, commit: string): boolean {
  const pin = fetcherOf(source.type).pinnedAt;
  return pin !== undefined && sameJson(pin(source, commit), source);
}

/**
 * What `source` would give now, asked without fetching it (`update --check`): `{ commit }` (the
 * commit its ref names, `undefined` when the ref is gone), or `undefined` when only a fetch can
 * tell. Throws the fetcher's coded failures.
 */
export async function askNewest(
  source: PackageSource,
  options: StageOptions = {},
): Promise<{ readonly commit: string | undefined } | undefined> {
  const newest = fetcherOf(source.type).newest;
  if (newest === undefined) return undefined;
  try {
    sourceMirror(source, options);
    return { commit: await newest(source, options) };
  } catch (error) {
    throw codedFailure(error);
  }
}

/**
 * The mirror a fetch of `source` goes through (the `to` of the rule that rewrites where it starts),
 * `undefined` when it goes to its upstream or is on this machine; `mirror_required` when none
 * rewrites it and the mirrors say every fetch must go through one.
 */
export function sourceMirror(source: PackageSource, options: StageOptions): string | undefined {
  const url = (fetcherOf(source.type) as Fetcher<SourceType>).upstreamUrl?.(source, options);
  return url === undefined ? undefined : mirrorFor(url, options.mirrors)?.to;
}
