import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  errnoCode,
  normalizeRelativePath,
  type PathAccess,
  resolveContained,
  SkillshelfError,
} from "@skillshelf/core";
import type { ArchiveEntry } from "./_tar.js";

/** How much one source may bring in (each kind of source has its own defaults). */
export interface SourceLimits {
  /** Most bytes downloaded: an archive, or what git fetches. */
  readonly maxDownloadBytes: number;
  /** Most bytes unpacked: an archive's members, or the commit git checks out. */
  readonly maxUnpackedBytes: number;
  /** Most archive members, or files, links and submodules in a commit. */
  readonly maxEntries: number;
}

/** An archive's limits: 50 MiB downloaded, 200 MiB unpacked, 10,000 members. */
export const DEFAULT_ARCHIVE_LIMITS: SourceLimits = {
  maxDownloadBytes: 50 * 1024 * 1024,
  maxUnpackedBytes: 200 * 1024 * 1024,
  maxEntries: 10_000,
};

/** Longest name of one path component, and longest member path, in bytes (Linux's NAME_MAX; a quarter of PATH_MAX). */
const MAX_NAME_BYTES = 255;
const MAX_PATH_BYTES = 1024;

/**
 * Unpack a `.tar.gz` or `.zip` (read with maintained parsers: `tar-stream`, `yauzl`) into the new
 * folder `dir`, only after every member has been checked: at most `maxEntries` members,
 * `maxUnpackedBytes` unpacked; no absolute path, `..`, backslash, repeated path, name over 255
 * bytes or path over 1,024, member under a symlink or a file member, or symlink that is absolute
 * or whose resolution leaves the package at any step (the one rule of `resolveContained`, applied
 * to the members before any is written). A single top-level folder (as hosting sites add) is
 * stripped, then `subfolder` is selected. A write that still fails is `stage_write_failed` naming
 * the member; the caller removes `dir`.
 */
export async function unpackArchive(
  archive: Uint8Array,
  dir: string,
  options: SourceLimits & {
    readonly format: "tar.gz" | "zip";
    readonly subfolder?: string | undefined;
  },
): Promise<void> {
  // the parsers load only when an archive is unpacked, so other sources do not pay for them
  const read =
    options.format === "zip"
      ? await (await import("./_zip.js")).readZip(archive, options)
      : await (await import("./_tar.js")).readTar(
          await gunzip(archive, options.maxUnpackedBytes),
          options.maxEntries,
        );
  const entries = selectEntries(checkedEntries(read), options.subfolder);
  checkLinks(entries);
  mkdirSync(dir);
  for (const entry of entries) {
    const path = join(dir, ...entry.path.split("/"));
    try {
      mkdirSync(join(path, entry.type === "directory" ? "" : ".."), { recursive: true });
      if (entry.type === "symlink") symlinkSync(entry.target, path);
      else if (entry.type === "file") {
        writeFileSync(path, entry.data, { flag: "wx" });
        chmodSync(path, entry.executable ? 0o755 : 0o644);
      }
    } catch (error) {
      throw new SkillshelfError(
        "stage_write_failed",
        `could not unpack the archive member ${JSON.stringify(entry.path)} (${errnoCode(error) ?? String(error)})`,
        {
          path,
          cause: error,
        },
      );
    }
  }
}

/** The format an archive URL names by its ending. */
export function archiveFormat(url: string): "tar.gz" | "zip" {
  return /\.zip$/i.test(new URL(url).pathname) ? "zip" : "tar.gz";
}

/** The format of an archive by its first bytes: a zip's local header, else gzip (as served with any name). */
export function archiveFormatOf(bytes: Uint8Array): "tar.gz" | "zip" {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04
    ? "zip"
    : "tar.gz";
}

/** The `archive_too_large` error, for a download or an unpacked stream past its limit. */
export function archiveTooLarge(problem: string, url?: string): SkillshelfError {
  return new SkillshelfError("archive_too_large", `the archive is too large: ${problem}`, {
    ...(url === undefined ? {} : { details: { url } }),
  });
}

function refuseEntry(path: string, problem: string): never {
  throw new SkillshelfError(
    "archive_entry_refused",
    `the archive member ${JSON.stringify(path)} ${problem}; nothing was unpacked`,
    { details: { entry: path } },
  );
}

// --- internal ---

async function gunzip(gzipped: Uint8Array, maxUnpackedBytes: number): Promise<Buffer> {
  const { gunzipSync } = await import("node:zlib");
  try {
    return gunzipSync(gzipped, { maxOutputLength: maxUnpackedBytes });
  } catch (error) {
    if (error instanceof RangeError)
      throw archiveTooLarge(`it unpacks to more than ${maxUnpackedBytes} bytes`);
    throw new SkillshelfError(
      "archive_invalid",
      `the download is not a gzip archive (${(error as Error).message})`,
      { cause: error },
    );
  }
}

/** Members with canonical paths, refused when any could write outside the package or collide. */
function checkedEntries(entries: readonly ArchiveEntry[]): ArchiveEntry[] {
  const checked: ArchiveEntry[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (entry.path.startsWith("/") || /^[A-Za-z]:/.test(entry.path))
      refuseEntry(entry.path, "has an absolute path");
    if (entry.path.includes("\\")) refuseEntry(entry.path, "has a backslash in its path");
    if (entry.path.includes("\0")) refuseEntry(entry.path, "has a NUL in its path");
    const parts = entry.path.split("/").filter((part) => part !== "" && part !== ".");
    if (parts.includes("..")) refuseEntry(entry.path, "climbs out with ..");
    if (parts.length === 0) continue;
    if (parts.some((part) => Buffer.byteLength(part) > MAX_NAME_BYTES))
      refuseEntry(entry.path, `has a name longer than ${MAX_NAME_BYTES} bytes`);
    const path = parts.join("/");
    if (Buffer.byteLength(path) > MAX_PATH_BYTES)
      refuseEntry(entry.path, `has a path longer than ${MAX_PATH_BYTES} bytes`);
    if (seen.has(path)) refuseEntry(entry.path, "appears twice");
    seen.add(path);
    if (entry.type === "symlink" && entry.target.startsWith("/"))
      refuseEntry(entry.path, `is a symlink to ${entry.target}, outside the package`);
    checked.push({ ...entry, path });
  }
  const notFolders = new Map(
    checked
      .filter((entry) => entry.type !== "directory")
      .map((entry) => [entry.path, entry.type] as const),
  );
  for (const entry of checked) {
    const parts = entry.path.split("/");
    for (let depth = 1; depth < parts.length; depth++) {
      const type = notFolders.get(parts.slice(0, depth).join("/"));
      if (type !== undefined)
        refuseEntry(entry.path, `lies under a ${type === "symlink" ? "symlink" : "file"} member`);
    }
  }
  return checked;
}

// the members are resolved as if unpacked under this folder, which nothing else shares
const VIRTUAL_ROOT = "/package";

/** Refuse a symlink member whose resolution, as the kernel would walk it, leaves the package. */
function checkLinks(entries: readonly ArchiveEntry[]): void {
  const nodes = new Map<string, ArchiveEntry | "folder">();
  for (const entry of entries) {
    const parts = entry.path.split("/");
    for (let depth = 1; depth < parts.length; depth++)
      nodes.set(`${VIRTUAL_ROOT}/${parts.slice(0, depth).join("/")}`, "folder");
    nodes.set(`${VIRTUAL_ROOT}/${entry.path}`, entry);
  }
  const access: PathAccess = {
    kindOf: (path) => {
      if (path === VIRTUAL_ROOT) return "directory";
      const node = nodes.get(path);
      if (node === undefined) return undefined;
      if (node === "folder" || node.type === "directory") return "directory";
      return node.type === "symlink" ? "link" : "file";
    },
    readLink: (path) => (nodes.get(path) as ArchiveEntry).target,
  };
  for (const entry of entries)
    if (
      entry.type === "symlink" &&
      resolveContained(`${VIRTUAL_ROOT}/${entry.path}`, VIRTUAL_ROOT, {
        relocatable: true,
        access,
      }).status === "outside"
    )
      refuseEntry(entry.path, `is a symlink to ${entry.target}, which leads outside the package`);
}

function selectEntries(
  entries: readonly ArchiveEntry[],
  subfolder: string | undefined,
): ArchiveEntry[] {
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
    throw new SkillshelfError("source_subfolder_missing", `the archive has no folder ${inside}`);
  return selected;
}
