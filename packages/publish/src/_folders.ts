import { lstatSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { SkillshelfError } from "@skillshelf/core";

/**
 * Make `parts` below `root` as real folders and return the last; a symlink on the way is
 * refused (`publish_destination_invalid`), never written through.
 */
export function realFolder(root: string, parts: readonly string[]): string {
  let path = root;
  for (const part of ["", ...parts]) {
    path = part === "" ? path : join(path, part);
    mkdirSync(path, { recursive: true });
    if (!lstatSync(path).isDirectory())
      throw new SkillshelfError(
        "publish_destination_invalid",
        `${path} is a link; publish writes only into real folders`,
        { path },
      );
  }
  return path;
}
