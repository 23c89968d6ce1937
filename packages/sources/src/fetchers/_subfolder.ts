import { normalizeRelativePath } from "@skillshelf/core";

/** A remote source narrowed to the folder `path` below the subfolder it names already. */
export function subfolderWithin<T extends { readonly path?: string | undefined }>(
  source: T,
  path: string,
): T {
  if (path === ".") return source;
  const joined = source.path === undefined ? path : `${source.path}/${path}`;
  return { ...source, path: normalizeRelativePath(joined) ?? joined };
}
