import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { siblingName } from "@skillshelf/core";
import type { RememberedTree, ScopeCache } from "./cache.js";

/**
 * What reading a scope's copies found, kept between processes in `<packages>/.remembered.json`:
 * each copy's tree digest with the stamp (`stampTree`: every node's `lstat`) it was read under
 * and the nodes it covered, and the manifest read cleanly from that tree. A copy whose stamp is
 * unchanged is not read again by `list`, a plan or a read-back; `verify` never looks here. Any
 * write to a tree moves a time in its stamp, so a stale entry is never taken; the file is a
 * cache, written by a read of a whole scope (atomically, and not where the folder cannot be).
 */
const FILE = ".remembered.json";

/**
 * Raised whenever `readPackageManifest`'s checks or output change: a file of another format is
 * ignored (test/remembered.test.ts holds the digest of the sources that decide it).
 */
export const REMEMBERED_FORMAT = 4;

/**
 * The copies of the scope folder `dir` as last read, each also put in `cache` (its tree digest,
 * and its manifest by digest) unless the cache already holds that folder. Read once per cache.
 */
export function recallTrees(dir: string, cache: ScopeCache): ReadonlyMap<string, RememberedTree> {
  const known = cache.remembered.get(dir);
  if (known !== undefined) return known;
  const recalled = new Map<string, RememberedTree>();
  cache.remembered.set(dir, recalled);
  let file: { format?: unknown; trees?: Record<string, RememberedTree> };
  try {
    file = JSON.parse(readFileSync(join(dir, FILE), "utf8"));
  } catch {
    return recalled;
  }
  if (file.format !== REMEMBERED_FORMAT || typeof file.trees !== "object" || file.trees === null)
    return recalled;
  for (const [id, tree] of Object.entries(file.trees)) {
    if (!wellFormed(tree)) continue;
    // ids are single folder names: no path to normalize
    const treeDir = `${dir}${sep}${id}`;
    recalled.set(id, tree);
    if (cache.trees.has(treeDir)) continue;
    cache.trees.set(treeDir, { stamp: tree.stamp, nodes: tree.nodes, digest: tree.digest });
    if (tree.manifest !== undefined && !cache.manifests.has(tree.digest))
      cache.manifests.set(tree.digest, {
        dir: resolve(treeDir),
        manifest: {
          ...tree.manifest,
          version: tree.manifest.version ?? undefined,
          description: tree.manifest.description ?? undefined,
          license: tree.manifest.license ?? undefined,
          manifestPath: join(resolve(treeDir), tree.manifest.manifestPath),
        },
      });
  }
  return recalled;
}

/**
 * The copies `ids` of scope folder `dir` (every one there is) as `cache` now knows them, written
 * back when that differs enough from `recalled` (`worthWriting`). A folder that cannot be
 * written is left as it is.
 */
export function rememberTrees(options: {
  readonly dir: string;
  readonly ids: readonly string[];
  readonly recalled: ReadonlyMap<string, RememberedTree>;
  readonly cache: ScopeCache;
}): void {
  const { dir, cache, recalled } = options;
  const trees = new Map<string, RememberedTree>();
  for (const id of options.ids) {
    const treeDir = join(dir, id);
    const tree = cache.trees.get(treeDir);
    if (tree === undefined) continue;
    const kept = cache.manifests.get(tree.digest);
    const manifest =
      kept === undefined
        ? undefined
        : { ...kept.manifest, manifestPath: relative(kept.dir, kept.manifest.manifestPath) };
    trees.set(id, { stamp: tree.stamp, nodes: tree.nodes, digest: tree.digest, manifest });
  }
  if (!worthWriting(trees, recalled)) return;
  cache.remembered.set(dir, trees);
  const path = join(dir, FILE);
  const temporary = join(dir, siblingName(FILE, "tmp"));
  try {
    const sorted = Object.fromEntries([...trees].sort(([a], [b]) => (a < b ? -1 : 1)));
    writeFileSync(temporary, JSON.stringify({ format: REMEMBERED_FORMAT, trees: sorted }), {
      mode: 0o600,
    });
    renameSync(temporary, path);
  } catch {
    rmSync(temporary, { force: true });
  }
}

/**
 * After a step moved trees into or out of the scope folder `dir`: the remembered copies, with
 * what `cache` knows of each tree the step put in place (stamped as it was staged) and without
 * each it took away, written back when worth it (`worthWriting`). A collection installed leaves
 * the next read stamping its trees, not reading them again.
 */
export function rememberMoves(
  dir: string,
  moves: readonly { readonly id: string; readonly after: unknown }[],
  cache: ScopeCache,
): void {
  if (moves.length === 0) return;
  const recalled = recallTrees(dir, cache);
  const ids = new Set(recalled.keys());
  for (const { id, after } of moves)
    if (after === null) ids.delete(id);
    else ids.add(id);
  rememberTrees({ dir, ids: [...ids], recalled, cache });
}

// --- internal ---

/** A cache file is ours but may be damaged: an entry of another shape is left out. */
function wellFormed(tree: RememberedTree): boolean {
  return (
    typeof tree === "object" &&
    tree !== null &&
    typeof tree.stamp === "string" &&
    typeof tree.digest === "string" &&
    Array.isArray(tree.nodes) &&
    tree.nodes.every((node) => typeof node === "string" && !node.split("/").includes(".."))
  );
}

/**
 * Whether `now` differs enough from `before` to rewrite the file: anything, when it held nothing,
 * else a twentieth of its entries new, changed or gone. The file is rewritten whole, so writing
 * it after every install would cost each install as much as the scope is large; a read meanwhile
 * reads the few copies not yet remembered instead (about a twentieth of them at most).
 */
function worthWriting(
  now: ReadonlyMap<string, RememberedTree>,
  before: ReadonlyMap<string, RememberedTree>,
): boolean {
  let learned = 0;
  for (const [id, tree] of now) {
    const seen = before.get(id);
    if (
      seen?.stamp !== tree.stamp ||
      seen.digest !== tree.digest ||
      (seen.manifest === undefined) !== (tree.manifest === undefined)
    )
      learned += 1;
  }
  for (const id of before.keys()) if (!now.has(id)) learned += 1;
  if (learned === 0) return false;
  return before.size === 0 || learned >= Math.max(1, Math.floor(now.size / 20));
}
