import { existsSync } from "node:fs";
import { join } from "node:path";
import { createDiagnostic, type Diagnostic } from "@skillshelf/core";
import {
  exposedDigest,
  isOurLink,
  linkBase,
  linkLibrary,
  makeLink,
  takeLink,
  withLinks,
} from "./_link-files.js";
import type { LinkRecord } from "./_state-schema.js";
import type { WriterContext } from "./_writer.js";
import { withTableEntry } from "./cache.js";
import type { ScopeState } from "./types.js";

/**
 * How a package's links follow a change to its copy, for the writer making it: each link to the
 * copy is kept, its digest read from `tree` (the new tree, before it moves in), or dropped when
 * `tree` is `undefined` (a removal) or no longer holds what the link exposes. `state` is the state
 * to commit; `changed` the link paths to pass to the commit; `afterCommit` brings the files in
 * line (refreshing copies, taking away dropped links that are still as they were made).
 */
export function followPackageLinks(
  context: Pick<WriterContext, "target">,
  state: ScopeState,
  id: string,
  tree: string | undefined,
): { state: ScopeState; changed: string[]; afterCommit: () => Diagnostic[] } {
  const { environment, scope } = context.target;
  const base = linkBase(environment, scope);
  const library = linkLibrary(environment, scope);
  const root = `packages/${id}`;
  let links = state.links ?? {};
  const changed: string[] = [];
  const actions: (() => Diagnostic[])[] = [];
  for (const [key, record] of Object.entries(links)) {
    const inside = record.target === root || record.target.startsWith(`${root}/`);
    if (record.package !== id || !inside) continue;
    const path = join(base, key);
    const live = join(library, record.target);
    const staged = tree === undefined ? undefined : join(tree, record.target.slice(root.length));
    const ours = isOurLink(path, live, record);
    if (staged === undefined || !existsSync(staged)) {
      links = withTableEntry(links, key, null);
      changed.push(key);
      actions.push(() => {
        if (!ours) return [leftAlone(path, record)];
        takeLink(path);
        return [];
      });
      continue;
    }
    const digest = exposedDigest(staged, record.kind);
    if (digest === record.digest) continue;
    links = withTableEntry(links, key, { ...record, digest });
    changed.push(key);
    if (record.mode === "copy")
      actions.push(() => {
        if (!ours) return [leftAlone(path, record)];
        takeLink(path);
        makeLink(path, live, record.kind, true);
        return [];
      });
  }
  return {
    state: withLinks(state, links),
    changed,
    afterCommit: () => actions.flatMap((action) => action()),
  };
}

// --- internal ---

function leftAlone(path: string, record: LinkRecord): Diagnostic {
  return createDiagnostic(
    "warning",
    record.mode === "copy" ? "link_changed" : "link_repointed",
    `${path} was changed since Skillshelf made it, so it is left as it is`,
    { path },
  );
}
