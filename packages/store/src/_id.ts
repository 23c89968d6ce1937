import { isPackageId, SkillshelfError } from "@skillshelf/core";

/**
 * Refuse an id that is not a package id (`package_id_invalid`) before anything touches the disk:
 * an id is a folder name under `packages/`, so `../x` or `a/b` would reach outside it.
 */
export function assertPackageId(id: string): void {
  if (isPackageId(id)) return;
  throw new SkillshelfError(
    "package_id_invalid",
    `${JSON.stringify(id)} is not a package id (1–64 lowercase letters, digits, "." and "-")`,
  );
}
