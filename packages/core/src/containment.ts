import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, posix, sep } from "node:path";
import { errnoCode } from "./errors.js";

/** True when the absolute path `target` is `anchor` itself or lies inside it (no `..` games: both are compared as given, so pass real paths). */
export function isInside(anchor: string, target: string): boolean {
  if (target === anchor) return true;
  const prefix = anchor.endsWith(sep) ? anchor : `${anchor}${sep}`;
  return target.startsWith(prefix);
}

/** Where a path really leads, relative to the anchor it must stay inside. */
export type ContainedPath =
  | { readonly status: "inside"; readonly real: string }
  | { readonly status: "outside"; readonly real: string }
  | { readonly status: "missing" };

/** What resolving a path sees of one node: the kinds the kernel tells apart on the way. */
export type PathNodeKind = "directory" | "file" | "link" | "other";

/**
 * How `resolveContained` reads the tree it resolves in: the disk by default, or a tree that is
 * not on disk yet (an archive's members, checked before anything is written).
 */
export interface PathAccess {
  /** The node at an absolute path, without following it if it is a link; `undefined` when absent. */
  readonly kindOf: (path: string) => PathNodeKind | undefined;
  /** The target text of the link at an absolute path. */
  readonly readLink: (path: string) => string;
}

/** Options of `resolveContained`. */
export interface ResolveContainedOptions {
  /**
   * Require every step of the resolution to stay inside the anchor and refuse absolute link
   * targets, so that the answer still holds once the tree is moved or copied elsewhere (package
   * trees). A dangling path is then `missing` only when what is left of it, read as plain folder
   * names, stays inside too. Default `false`: only where the path ends counts.
   */
  readonly relocatable?: boolean | undefined;
  /** Default: the disk. */
  readonly access?: PathAccess | undefined;
}

/**
 * Resolve the absolute `path` the way the kernel does — one component at a time, a symlink's
 * target read and walked from the link's folder, `..` taken from the folder actually reached, at
 * most 40 links — and report whether the result stays inside `anchorReal` (itself a real path).
 * A dangling link, a loop, or a file used as a folder is `missing`; other I/O errors are thrown.
 * This is the one containment rule: loaders, tree digests and copies, staging and validation use it.
 */
export function resolveContained(
  path: string,
  anchorReal: string,
  options: ResolveContainedOptions = {},
): ContainedPath {
  if (!isAbsolute(path)) throw new Error(`resolveContained needs an absolute path, not ${path}`);
  const access = options.access ?? DISK;
  const relocatable = options.relocatable === true;
  const underAnchor = anchorReal !== "/" && isInside(anchorReal, path);
  let current = underAnchor ? anchorReal : "/";
  const pending = (underAnchor ? path.slice(anchorReal.length) : path).split("/").reverse();
  let isFolder = true;
  let dangling = false;
  let links = 0;
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (!isFolder) return MISSING;
    if (name === "" || name === ".") continue;
    if (name === "..") current = dirname(current);
    else {
      const next = current === "/" ? `/${name}` : `${current}/${name}`;
      const kind = dangling ? "directory" : access.kindOf(next);
      if (kind === undefined) {
        if (!relocatable) return MISSING;
        dangling = true;
        current = next;
      } else if (kind === "link") {
        links += 1;
        const target = access.readLink(next);
        if (links > MAX_LINKS || target === "") return MISSING;
        if (isAbsolute(target)) {
          if (relocatable) return { status: "outside", real: target };
          current = "/";
        }
        pending.push(...target.split("/").reverse());
        continue;
      } else {
        current = next;
        isFolder = kind === "directory";
      }
    }
    if (relocatable && !isInside(anchorReal, current)) return { status: "outside", real: current };
  }
  if (dangling) return MISSING;
  return { status: isInside(anchorReal, current) ? "inside" : "outside", real: current };
}

/** The real path of `path` as the kernel resolves it, or `undefined` when it (or a link on the way) does not resolve. */
export function realpathOrUndefined(path: string): string | undefined {
  // most paths asked about that do not resolve do not exist: answered without building an error
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return undefined;
  try {
    return realpathSync.native(path);
  } catch (error) {
    const code = errnoCode(error);
    if (code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP") return undefined;
    throw error;
  }
}

/**
 * A relative path as written in a manifest, index or source, made canonical: `/` separated, no
 * `./` segments or trailing `/`, `.` for the folder itself. `undefined` when it is absolute (also
 * a Windows drive), holds a backslash, or climbs out of its folder with `..`.
 */
export function normalizeRelativePath(text: string): string | undefined {
  if (text.includes("\\") || text.startsWith("/") || /^[A-Za-z]:/.test(text)) return undefined;
  const normalized = posix.normalize(text).replace(/\/+$/, "");
  if (normalized === ".." || normalized.startsWith("../")) return undefined;
  return normalized === "" ? "." : normalized;
}

// --- internal ---

// Linux's MAXSYMLINKS: the 41st link followed in one resolution is ELOOP
const MAX_LINKS = 40;

const MISSING: ContainedPath = { status: "missing" };

const DISK: PathAccess = {
  kindOf: (path) => {
    let stats: ReturnType<typeof lstatSync>;
    try {
      stats = lstatSync(path, { throwIfNoEntry: false });
    } catch (error) {
      if (errnoCode(error) === "ENOTDIR") return undefined;
      throw error;
    }
    if (stats === undefined) return undefined;
    if (stats.isSymbolicLink()) return "link";
    if (stats.isDirectory()) return "directory";
    return stats.isFile() ? "file" : "other";
  },
  readLink: (path) => readlinkSync(path),
};
