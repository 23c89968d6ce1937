import { type Dirent, readdirSync, type Stats, statSync } from "node:fs";
import { basename, sep } from "node:path";
import { isInside } from "./containment.js";
import { compareText } from "./diagnostics.js";
import { anchorRoot, followLink, readFailed } from "./links.js";
import type { ResourceRoot } from "./roots.js";
import type { Diagnostic } from "./types.js";

/** A markdown file found under a root. */
export interface MarkdownFile {
  /** As discovered, under the root. */
  readonly path: string;
  /** Every symlink resolved; inside the root's anchor. */
  readonly realPath: string;
  /** Relative to the root, with `/` separators, `.md` included (the file name for a file root). */
  readonly relativePath: string;
}

/** What a walk found, and whether two of its files could be one file. */
export interface MarkdownWalk {
  readonly files: MarkdownFile[];
  readonly diagnostics: Diagnostic[];
  readonly rootReal: string | undefined;
  readonly followedLinks: boolean;
}

/** Folders below a root that a recursive walk descends into at most. */
export const MAX_WALK_DEPTH = 12;

/**
 * Find the `*.md` files under a root, sorted by relative path: only its top level, or every level
 * with `recursive` (skipping names that start with `.` and `node_modules`). A symlink is followed
 * only when its target stays inside the root's anchor (see `anchorRoot`); a missing root yields
 * nothing and no diagnostic.
 */
export function findMarkdownFiles(
  root: Pick<ResourceRoot, "path" | "scope" | "containment">,
  options: { readonly recursive: boolean },
): MarkdownWalk {
  const walk: {
    files: MarkdownFile[];
    diagnostics: Diagnostic[];
    rootReal: string | undefined;
    followedLinks: boolean;
  } = {
    files: [],
    diagnostics: [],
    rootReal: undefined,
    followedLinks: false,
  };
  const anchored = anchorRoot(root);
  if (anchored.status === "missing") return walk;
  walk.rootReal = anchored.real;
  if (anchored.status === "refused") {
    walk.diagnostics.push(anchored.diagnostic);
    return walk;
  }
  let stats: Stats | undefined;
  try {
    stats = statSync(anchored.real);
  } catch (error) {
    walk.diagnostics.push(readFailed(root.path, error));
    return walk;
  }
  if (stats.isFile()) {
    walk.files.push({
      path: root.path,
      realPath: anchored.real,
      relativePath: basename(root.path),
    });
    return walk;
  }
  const linkedDirs = new Set<string>();
  const visit = (dir: string, dirReal: string, prefix: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      walk.diagnostics.push(readFailed(dir, error));
      return;
    }
    entries.sort((a, b) => compareText(a.name, b.name));
    for (const entry of entries) {
      const name = entry.name;
      if (name.startsWith(".") || name === "node_modules") continue;
      const path = `${dir}${sep}${name}`;
      let kind: "file" | "dir" | "other" = entry.isFile()
        ? "file"
        : entry.isDirectory()
          ? "dir"
          : "other";
      let real = `${dirReal}${sep}${name}`;
      if (entry.isSymbolicLink()) {
        const target = followLink(path, anchored.anchor);
        if (!target.ok) {
          walk.diagnostics.push(target.diagnostic);
          continue;
        }
        walk.followedLinks = true;
        kind = target.kind;
        real = target.real;
        // a link back to a folder above is a loop; a folder already entered through a link is done
        if (kind === "dir" && (isInside(real, dirReal) || linkedDirs.has(real))) continue;
        if (kind === "dir") linkedDirs.add(real);
      }
      if (kind === "file" && name.toLowerCase().endsWith(".md")) {
        walk.files.push({ path, realPath: real, relativePath: `${prefix}${name}` });
      } else if (kind === "dir" && options.recursive && depth < MAX_WALK_DEPTH) {
        visit(path, real, `${prefix}${name}/`, depth + 1);
      }
    }
  };
  visit(root.path, anchored.real, "", 0);
  walk.files.sort((a, b) => compareText(a.relativePath, b.relativePath));
  return walk;
}
