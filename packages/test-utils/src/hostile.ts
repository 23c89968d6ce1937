import type { TarMember } from "./archives.js";
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

/** `chainedLinkTree` as the members of a `.tar.gz` under a top folder `pkg/`. */
export function chainedLinkTarMembers(): TarMember[] {
  return [
    { path: "pkg/plugin.json", content: String(chainedLinkTree()["plugin.json"]) },
    { path: "pkg/d/up", type: "symlink", target: ".." },
    { path: "pkg/p1", type: "symlink", target: "d/up/.." },
    ...Array.from({ length: 19 }, (_, index) => ({
      path: `pkg/p${index + 2}`,
      type: "symlink" as const,
      target: `p${index + 1}/..`,
    })),
    { path: "pkg/skills/leak/reference.md", type: "symlink", target: "../../p20/etc/passwd" },
  ];
}
