import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { type Environment, isFolderLike, LINKABLE_KINDS, type LinkKind } from "@skillshelf/core";
import type { InventoryResource } from "@skillshelf/inventory";

/**
 * What a name given to `link` or `unlink` asks for, read one way for both: `kind:name` (`skill:pdf`:
 * that kind alone), a path (anything with a `/`, or starting with `.` or `~`: resolved against the
 * working folder, links followed), else a name — of a resource, or the id of the package owning
 * what is linked.
 */
export interface LinkName {
  readonly text: string;
  readonly kind?: LinkKind | undefined;
  /** The name without its `kind:` prefix. */
  readonly name: string;
  /** The absolute path it names, when it is a path: its folders' links resolved, not its own. */
  readonly path?: string | undefined;
}

/** `text` read as `LinkName` describes. */
export function readLinkName(environment: Environment, text: string): LinkName {
  const prefix = LINKABLE_KINDS.find((kind) => text.startsWith(`${kind}:`));
  if (prefix !== undefined) return { text, kind: prefix, name: text.slice(prefix.length + 1) };
  const pathLike = text.includes("/") || text.startsWith(".") || text.startsWith("~");
  if (!pathLike) return { text, name: text };
  const expanded = text.startsWith("~") ? `${environment.home}${text.slice(1)}` : text;
  return { text, name: text, path: linkPath(resolve(environment.cwd, expanded)) };
}

/**
 * The resources `given` names, first by the order of `resources`: the one of its name (and kind),
 * the one whose folder or file is its path, else every one the package of that id owns.
 */
export function namedResources(
  resources: readonly InventoryResource[],
  given: LinkName,
): InventoryResource[] {
  if (given.path !== undefined) {
    const wanted = realPath(given.path);
    const at = resources.find((resource) => realPath(placeOf(resource)) === wanted);
    return at === undefined ? [] : [at];
  }
  const named = resources.find(
    (resource) =>
      resource.name === given.name && (given.kind === undefined || resource.kind === given.kind),
  );
  if (named !== undefined) return [named];
  return given.kind === undefined
    ? resources.filter((resource) => resource.owner?.id === given.name)
    : [];
}

/** The folder (a skill) or the file (a template) a resource is linked by. */
export function placeOf(resource: InventoryResource): string {
  const file = resource.path ?? "";
  return isFolderLike(resource.kind as LinkKind) ? dirname(file) : file;
}

/** `path` with its folders' links resolved but not its own: where a link itself is. */
export function linkPath(path: string): string {
  return join(realPath(dirname(path)), basename(path));
}

/** `path` with its links resolved, or as it is when it does not exist. */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return isAbsolute(path) ? path : resolve(path);
  }
}
