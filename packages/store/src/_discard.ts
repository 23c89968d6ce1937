import { renameSync } from "node:fs";
import { join } from "node:path";
import { errnoCode, removeTree, siblingName } from "@skillshelf/core";

/**
 * Remove the tree or folder at `path` from the packages folder `dir`: renamed aside to a
 * `.<name>.discard-…` sibling first, so it is gone in one step and an interrupted removal is a
 * leftover the next writer recognises; nothing there is nothing to do.
 */
export function discard(dir: string, name: string, path: string): void {
  const aside = join(dir, siblingName(name, "discard"));
  try {
    renameSync(path, aside);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return;
    throw error;
  }
  removeTree(aside);
}
