import { lstatSync, statSync } from "node:fs";
import { join } from "node:path";
import { createDiagnostic, type Diagnostic, resolveContained } from "@skillshelf/core";

/** The `path_invalid` error for a manifest path that is not a contained relative path. */
export function invalidPath(manifestPath: string, key: string, value: string): Diagnostic {
  return createDiagnostic(
    "error",
    "path_invalid",
    `"${key}" is ${JSON.stringify(value)}, which is not a relative path inside the package`,
    { path: manifestPath, details: { key, value } },
  );
}

/**
 * Check that `relative` exists inside the package folder `dir` as a `want` (file or folder), also
 * after resolving symlinks the way the kernel does, staying inside at every step (core's
 * `resolveContained`, relocatable); returns the finding, or `undefined` when it is fine.
 */
export function checkContained(options: {
  readonly dir: string;
  readonly dirReal: string;
  readonly relative: string;
  readonly want: "file" | "folder";
  readonly key: string;
  readonly manifestPath: string;
}): Diagnostic | undefined {
  const { dir, dirReal, relative, want, key, manifestPath } = options;
  const path = join(dir, relative);
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined)
    return createDiagnostic(
      "error",
      "path_missing",
      `"${key}" names ${relative}, which does not exist in the package`,
      { path: manifestPath, details: { key, value: relative } },
    );
  const resolved = resolveContained(`${dirReal}/${relative}`, dirReal, { relocatable: true });
  if (resolved.status !== "inside")
    return createDiagnostic(
      "error",
      "path_escape",
      `"${key}" names ${relative}, which leads outside the package through a symbolic link`,
      {
        path: manifestPath,
        details: {
          key,
          value: relative,
          ...(resolved.status === "outside" ? { realPath: resolved.real } : {}),
        },
      },
    );
  const stats = statSync(resolved.real);
  if (want === "file" ? !stats.isFile() : !stats.isDirectory())
    return createDiagnostic(
      "error",
      "path_kind",
      `"${key}" names ${relative}, which is not a ${want}`,
      { path: manifestPath, details: { key, value: relative } },
    );
  return undefined;
}
