import { chmodSync, copyFileSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { walkTree } from "./_tree-walk.js";

/** Options of `copyTree`. */
export interface CopyTreeOptions {
  /** Entry names (at any depth) to leave out, for example `.git`. Default: none. */
  readonly skip?: ((name: string) => boolean) | undefined;
}

/**
 * Copy the package tree at `from` to `to`, which must not exist yet (its parent must). Folders get mode 0755, files
 * 0644 or, when executable, 0755; symlinks are copied verbatim (their targets are checked to stay
 * inside the tree, as by `digestTree`). On any failure `to` is removed again and the
 * `SkillshelfError` of the walk (or the I/O error) is thrown, so a refused tree leaves nothing.
 */
export function copyTree(from: string, to: string, options: CopyTreeOptions = {}): void {
  const destination = resolve(to);
  mkdirSync(destination, { mode: 0o755 });
  try {
    walkTree(
      from,
      (node) => {
        if (node.relative === "") return;
        const target = join(destination, node.relative);
        if (node.kind === "directory") mkdirSync(target, { mode: 0o755 });
        else if (node.kind === "link") symlinkSync(node.target, target);
        else {
          copyFileSync(node.path, target);
          chmodSync(target, node.executable ? 0o755 : 0o644);
        }
      },
      options.skip,
    );
  } catch (error) {
    rmSync(destination, { recursive: true, force: true });
    throw error;
  }
}
