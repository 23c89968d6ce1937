import { lstatSync, readdirSync, rmdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { errnoCode } from "./errors.js";

/**
 * Remove the file, link or folder at `path` and everything below it, without recursion, so a
 * tree of any depth goes (Node's own recursive `rmSync` recurses once per level). A link is
 * removed, never followed. What is already gone is skipped; other failures throw.
 */
export function removeTree(path: string): void {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return;
  if (!stats.isDirectory()) {
    ignoringGone(() => unlinkSync(path));
    return;
  }
  // every folder, each after the one holding it: removed in the reverse order, once emptied
  const folders: string[] = [];
  const pending = [path];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    folders.push(folder);
    const parent = folder;
    const entries = ignoringGone(() => readdirSync(parent, { withFileTypes: true })) ?? [];
    for (const entry of entries) {
      const child = join(parent, entry.name);
      if (entry.isDirectory()) pending.push(child);
      else ignoringGone(() => unlinkSync(child));
    }
  }
  for (let index = folders.length - 1; index >= 0; index--) {
    const folder = folders[index] as string;
    ignoringGone(() => rmdirSync(folder));
  }
}

// --- internal ---

function ignoringGone<T>(action: () => T): T | undefined {
  try {
    return action();
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return undefined;
    throw error;
  }
}
