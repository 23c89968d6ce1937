import { existsSync } from "node:fs";
import { join } from "node:path";
import { exposedDigest, withLinks } from "./_link-files.js";
import { linkMove } from "./_link-moves.js";
import type { LinkMove } from "./_step-journal.js";
import { withTableEntry } from "./cache.js";
import type { ScopeState } from "./types.js";

/**
 * How a package's links follow a change to its copy, for the writer making it: each link to the
 * copy is kept, its digest read from `tree` (the new tree, before it moves in), or dropped when
 * `tree` is `undefined` (a removal) or no longer holds what the link exposes. `state` is the state
 * to commit; `changed` the link keys whose lock entries change; `moves` the link files the step
 * takes away or refreshes (a copied link is made again from the new tree).
 */
export function followPackageLinks(
  state: ScopeState,
  id: string,
  tree: string | undefined,
): { state: ScopeState; changed: string[]; moves: LinkMove[] } {
  // a disabled copy's links are recorded but not in the agents' folders: only records change
  const onDisk = tree === undefined || !state.disabled.includes(id);
  const root = `packages/${id}`;
  let links = state.links ?? {};
  const changed: string[] = [];
  const moves: LinkMove[] = [];
  for (const [key, record] of Object.entries(links)) {
    const inside = record.target === root || record.target.startsWith(`${root}/`);
    if (record.package !== id || !inside) continue;
    const staged = tree === undefined ? undefined : join(tree, record.target.slice(root.length));
    if (staged === undefined || !existsSync(staged)) {
      links = withTableEntry(links, key, null);
      changed.push(key);
      if (onDisk) moves.push(linkMove("take", key, record));
      continue;
    }
    const digest = exposedDigest(staged, record.kind, record.bare);
    if (digest === record.digest) continue;
    const refreshed = { ...record, digest };
    links = withTableEntry(links, key, refreshed);
    changed.push(key);
    if (record.mode === "copy" && onDisk)
      moves.push(linkMove("refresh", key, refreshed, record.digest));
  }
  return { state: withLinks(state, links), changed, moves };
}
