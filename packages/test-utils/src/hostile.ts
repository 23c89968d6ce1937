import { packageTree } from "./packages.js";
import { link, type Tree } from "./testdir.js";

/**
 * A valid package `leak` whose every symlink stays inside when its target is normalised
 * lexically, while the kernel follows `skills/leak/reference.md` out to `/etc/passwd`:
 * `d/up -> ..`, `p1 -> d/up/..`, `p2 -> p1/..` … `p20 -> p19/..` (for a tree fewer than 20
 * folders deep).
 */
export function chainedLinkTree(): Tree {
  const links: Record<string, Tree[string]> = {
    "d/up": link(".."),
    p1: link("d/up/.."),
    "skills/leak/reference.md": link("../../p20/etc/passwd"),
  };
  for (let step = 2; step <= 20; step++) links[`p${step}`] = link(`p${step - 1}/..`);
  return packageTree({ id: "leak", files: links });
}
