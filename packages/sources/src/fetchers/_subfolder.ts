import { statSync } from "node:fs";
import {
  normalizeRelativePath,
  realpathOrUndefined,
  resolveContained,
  SkillshelfError,
} from "@skillshelf/core";

/** A remote source narrowed to the folder `path` below the subfolder it names already. */
export function subfolderWithin<T extends { readonly path?: string | undefined }>(
  source: T,
  path: string,
): T {
  if (path === ".") return source;
  const joined = source.path === undefined ? path : `${source.path}/${path}`;
  return { ...source, path: normalizeRelativePath(joined) ?? joined };
}

/** `subfolderWithin`'s inverse: `source` without the folder it is narrowed to, and that folder. */
export function subfolderOuter<T extends { readonly path?: string | undefined }>(
  source: T,
): { readonly source: T; readonly path: string } {
  const { path, ...outer } = source;
  return { source: outer as T, path: path ?? "." };
}

/**
 * The real path of the folder `path` (`/`-separated) inside the fetched tree `root`: refused when
 * it leads out of `root` through a symlink (`tree_link_escape`) or is no folder
 * (`source_subfolder_missing`, `what` saying what `root` holds, as "the repository").
 */
export function realSubfolder(root: string, path: string, what: string): string {
  const rootReal = realpathOrUndefined(root) ?? root;
  const resolved = resolveContained(`${rootReal}/${path}`, rootReal, { relocatable: true });
  if (resolved.status === "outside")
    throw new SkillshelfError(
      "tree_link_escape",
      `the folder ${path} leads outside ${what} through a symlink`,
      { details: { subfolder: path } },
    );
  if (resolved.status === "missing" || !statSync(resolved.real).isDirectory())
    throw new SkillshelfError("source_subfolder_missing", `${what} has no folder ${path}`, {
      details: { subfolder: path },
    });
  return resolved.real;
}
