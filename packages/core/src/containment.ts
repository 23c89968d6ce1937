import { realpathSync } from "node:fs";
import { posix, sep } from "node:path";
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

/**
 * Resolve `path` through every symlink and report whether the result stays inside `anchorReal`
 * (which must itself be a real path). A dangling link or a missing path is `missing`; other I/O
 * errors are thrown.
 */
export function resolveContained(path: string, anchorReal: string): ContainedPath {
  const real = realpathOrUndefined(path);
  if (real === undefined) return { status: "missing" };
  return { status: isInside(anchorReal, real) ? "inside" : "outside", real };
}

/** The real path of `path`, or `undefined` when it (or a link on the way) does not resolve. */
export function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
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
