import { join } from "node:path";
import {
  type PackageScope,
  packageRoot,
  RESOURCE_KINDS,
  type ResourceKind,
  type ResourceRoot,
  resourceFolder,
} from "@skillshelf/core";
import type { PackageCopy, PackageSnapshot } from "./types.js";

/** What turning a package folder into loader roots needs to know of it. */
export type PackageRootSource = Pick<PackageCopy, "id" | "dir" | "manifest" | "record"> & {
  readonly scope?: PackageScope | undefined;
};

/**
 * The loader roots of the installed packages in a snapshot: for every loadable
 * copy (valid, enabled and effective), each folder it declares for `kind`, in snapshot order.
 * The one function that turns a snapshot into roots: `resources`, `inventory` and `validation`
 * all use it (through `packageCopyRoots`), so they cannot disagree about what a package offers.
 */
export function snapshotRoots(snapshot: PackageSnapshot, kind: ResourceKind): ResourceRoot[] {
  return snapshot.copies
    .filter((copy) => copy.loadable)
    .flatMap((copy) => packageCopyRoots(copy, kind));
}

/**
 * The loader roots of one package folder for `kind`: scope `package`, precedence below the user
 * library, source `package:<id>`, anchored to the package folder, trusted unless the package is
 * `foreign` (its record says so, or it is a Claude Code plugin). Empty when the manifest did not
 * read or declares no such folder.
 */
export function packageCopyRoots(copy: PackageRootSource, kind: ResourceKind): ResourceRoot[] {
  const manifest = copy.manifest;
  if (manifest === undefined) return [];
  const trust = copy.record?.trust ?? (manifest.format === "claude-code" ? "foreign" : "trusted");
  return manifest.resources
    .filter((folder) => folder.kind === resourceFolder(kind))
    .map((folder) =>
      packageRoot({
        id: copy.id,
        scope: copy.scope,
        path: folder.path === "." ? copy.dir : join(copy.dir, folder.path),
        packageDir: copy.dir,
        trust,
      }),
    );
}

/** The roots of one package folder for every kind: what a read of that folder alone loads. */
export function packageFolderRoots(copy: PackageRootSource): {
  readonly [K in ResourceKind]?: ResourceRoot[];
} {
  return Object.fromEntries(RESOURCE_KINDS.map((kind) => [kind, packageCopyRoots(copy, kind)]));
}
