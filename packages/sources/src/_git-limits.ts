// A git fetch's limits, enforced while it runs: what git stores is watched and the fetch stopped
// past `maxDownloadBytes`; a commit's listing is checked before it is checked out.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { SkillshelfError } from "@skillshelf/core";
import type { SourceLimits } from "./_archive.js";

/** A git source's limits: 500 MiB fetched, 1 GiB and 100,000 entries checked out. */
export const DEFAULT_GIT_LIMITS: SourceLimits = {
  maxDownloadBytes: 500 * 1024 * 1024,
  maxUnpackedBytes: 1024 * 1024 * 1024,
  maxEntries: 100_000,
};

function sourceTooLarge(url: string, what: string): SkillshelfError {
  return new SkillshelfError("source_too_large", `${url}: ${what}`);
}

/**
 * Watch what git writes into `gitDir`'s packs while it fetches, and abort it (through the returned
 * `signal`) once that passes `maxBytes`.
 */
export function watchFetch(
  gitDir: string,
  maxBytes: number,
  signal: AbortSignal | undefined,
): { signal: AbortSignal; exceeded(): boolean; stop(): void } {
  const controller = new AbortController();
  let exceeded = false;
  const timer = setInterval(() => {
    if (storedBytes(gitDir) > maxBytes) {
      exceeded = true;
      controller.abort();
    }
  }, 50);
  return {
    signal: signal === undefined ? controller.signal : AbortSignal.any([signal, controller.signal]),
    exceeded: () => exceeded,
    stop: () => clearInterval(timer),
  };
}

export function tooMuchFetched(url: string, limits: SourceLimits): SkillshelfError {
  return sourceTooLarge(url, `git received more than ${limits.maxDownloadBytes} bytes`);
}

/** The bytes git has stored in `gitDir`: its packs (those being received too) and loose objects. */
export function storedBytes(gitDir: string): number {
  const objects = join(gitDir, "objects");
  return listed(objects).reduce(
    (sum, folder) =>
      sum +
      listed(join(objects, folder)).reduce(
        (inner, name) =>
          inner + (statSync(join(objects, folder, name), { throwIfNoEntry: false })?.size ?? 0),
        0,
      ),
    0,
  );
}

function listed(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Refuse a commit whose `ls-tree -r -l -z` listing passes the limits, before it is checked out. */
export function assertTreeWithin(listing: string, url: string, limits: SourceLimits): void {
  let entries = 0;
  let bytes = 0;
  for (const line of listing.split("\0")) {
    if (line === "") continue;
    entries += 1;
    const size = Number(line.slice(0, line.indexOf("\t")).trim().split(/\s+/)[3]);
    if (Number.isFinite(size)) bytes += size;
  }
  if (entries > limits.maxEntries)
    throw sourceTooLarge(url, `the commit holds ${entries} files, more than ${limits.maxEntries}`);
  if (bytes > limits.maxUnpackedBytes)
    throw sourceTooLarge(
      url,
      `the commit holds ${bytes} bytes, more than ${limits.maxUnpackedBytes}`,
    );
}
