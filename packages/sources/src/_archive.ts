import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, posix } from "node:path";
import { gunzipSync } from "node:zlib";
import { normalizeRelativePath, SkillshelfError } from "@skillshelf/core";
import { parseTar, type TarEntry } from "./_tar.js";

/** Limits on an archive source. */
export interface ArchiveLimits {
  /** Largest download, in bytes. Default 50 MiB. */
  readonly maxDownloadBytes: number;
  /** Largest unpacked tar stream, in bytes. Default 200 MiB. */
  readonly maxUnpackedBytes: number;
  /** Most archive members. Default 10,000. */
  readonly maxEntries: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxDownloadBytes: 50 * 1024 * 1024,
  maxUnpackedBytes: 200 * 1024 * 1024,
  maxEntries: 10_000,
};

/** Download `url` into memory, refusing more than `maxBytes` (by header, then while reading). */
export async function download(
  url: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: "follow" });
  } catch (error) {
    const cancelled =
      (error as Error).name === "TimeoutError" || (error as Error).name === "AbortError";
    throw new SkillshelfError(
      cancelled ? "download_timeout" : "download_failed",
      `could not download ${url} (${cancelled ? "it took too long or was cancelled" : String((error as Error).cause ?? error)})`,
      { hint: "check the URL and the network, then retry", cause: error },
    );
  }
  if (!response.ok || response.body === null)
    throw new SkillshelfError(
      "download_failed",
      `downloading ${url} answered HTTP ${response.status}`,
      { hint: "check the URL" },
    );
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await response.body.cancel();
    throw tooLarge(`the download is ${declared} bytes, over the ${maxBytes}-byte limit`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > maxBytes) throw tooLarge(`the download passed the ${maxBytes}-byte limit`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Unpack a `.tar.gz` into the new folder `dir`, only after every member has been checked: at most
 * `maxEntries` members, `maxUnpackedBytes` unpacked; no absolute path, `..`, backslash, repeated
 * path, path through a symlink member, or symlink whose target is absolute or leaves the tree.
 * A single top-level folder (as hosting sites add) is stripped, then `subfolder` is selected.
 */
export function unpackArchive(
  gzipped: Uint8Array,
  dir: string,
  options: ArchiveLimits & { readonly subfolder?: string | undefined },
): void {
  let tar: Buffer;
  try {
    tar = gunzipSync(gzipped, { maxOutputLength: options.maxUnpackedBytes });
  } catch (error) {
    if (error instanceof RangeError)
      throw tooLarge(`it unpacks to more than ${options.maxUnpackedBytes} bytes`);
    throw new SkillshelfError(
      "archive_invalid",
      `the download is not a gzip archive (${(error as Error).message})`,
      { hint: "the URL must name a .tar.gz", cause: error },
    );
  }
  const entries = selectEntries(
    checkedEntries(parseTar(tar, options.maxEntries)),
    options.subfolder,
  );
  mkdirSync(dir);
  for (const entry of entries) {
    const path = join(dir, ...entry.path.split("/"));
    mkdirSync(join(path, entry.type === "directory" ? "" : ".."), { recursive: true });
    if (entry.type === "symlink") symlinkSync(entry.target, path);
    else if (entry.type === "file") {
      writeFileSync(path, entry.data, { flag: "wx" });
      chmodSync(path, entry.executable ? 0o755 : 0o644);
    }
  }
}

// --- internal ---

function tooLarge(problem: string): SkillshelfError {
  return new SkillshelfError("archive_too_large", `the archive is too large: ${problem}`, {
    hint: "raise the limit only for a source you trust, or ask for a smaller package",
  });
}

function refuseEntry(path: string, problem: string): never {
  throw new SkillshelfError(
    "archive_entry_refused",
    `the archive member ${JSON.stringify(path)} ${problem}; nothing was unpacked`,
    { hint: "only use archives whose members stay inside the package" },
  );
}

/** Members with canonical paths, refused when any could write outside the package. */
function checkedEntries(entries: readonly TarEntry[]): TarEntry[] {
  const checked: TarEntry[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (entry.path.startsWith("/") || /^[A-Za-z]:/.test(entry.path))
      refuseEntry(entry.path, "has an absolute path");
    if (entry.path.includes("\\")) refuseEntry(entry.path, "has a backslash in its path");
    const parts = entry.path.split("/").filter((part) => part !== "" && part !== ".");
    if (parts.includes("..")) refuseEntry(entry.path, "climbs out with ..");
    if (parts.length === 0) continue;
    const path = parts.join("/");
    if (seen.has(path)) refuseEntry(entry.path, "appears twice");
    seen.add(path);
    if (entry.type === "symlink") {
      const resolved = posix.normalize(posix.join(posix.dirname(path), entry.target));
      if (entry.target.startsWith("/") || resolved === ".." || resolved.startsWith("../"))
        refuseEntry(entry.path, `is a symlink to ${entry.target}, outside the package`);
    }
    checked.push({ ...entry, path });
  }
  const links = new Set(
    checked.filter((entry) => entry.type === "symlink").map((entry) => entry.path),
  );
  for (const entry of checked) {
    const parts = entry.path.split("/");
    for (let depth = 1; depth < parts.length; depth++)
      if (links.has(parts.slice(0, depth).join("/")))
        refuseEntry(entry.path, "lies under a symlink member");
  }
  return checked;
}

function selectEntries(entries: readonly TarEntry[], subfolder: string | undefined): TarEntry[] {
  const tops = new Set(entries.map((entry) => entry.path.split("/")[0]));
  const [top] = tops;
  const stripped =
    tops.size === 1 &&
    top !== undefined &&
    entries.some((entry) => entry.path.startsWith(`${top}/`)) &&
    !entries.some((entry) => entry.path === top && entry.type !== "directory")
      ? entries
          .filter((entry) => entry.path !== top)
          .map((entry) => ({ ...entry, path: entry.path.slice(top.length + 1) }))
      : [...entries];
  const inside = subfolder === undefined ? "." : normalizeRelativePath(subfolder);
  if (inside === undefined) refuseEntry(subfolder ?? "", "is not a subfolder inside the archive");
  if (inside === ".") return stripped;
  const selected = stripped
    .filter((entry) => entry.path.startsWith(`${inside}/`))
    .map((entry) => ({ ...entry, path: entry.path.slice(inside.length + 1) }));
  if (selected.length === 0)
    throw new SkillshelfError("source_subfolder_missing", `the archive has no folder ${inside}`, {
      hint: "check the path in the source",
    });
  return selected;
}
