// Staging many recorded sources at once (`update`): what several of them share is fetched once.
import { dirname } from "node:path";
import { canonicalJson, type PackageSource } from "@skillshelf/core";
import {
  describeSource,
  type FetchedSource,
  fetchedWithin,
  fetchSource,
  sourceOuter,
} from "@skillshelf/sources";
import type { StagePlanning } from "./_planning.js";
import { refusalOf } from "./_refusal.js";
import { type Staged, stage, stageFetched } from "./_stage.js";

/**
 * Stage each of `sources` as `stage` does, fetching once what several of them share: sources
 * that narrow one fetch (a repository at one ref, an archive, a package) to folders apart from
 * each other's are staged from one fetch of it, each from its own folder there, and a fetch that
 * fails refuses every source it was for. Any other source is staged alone. In input order.
 */
export async function stageEach(
  planning: StagePlanning,
  sources: readonly PackageSource[],
): Promise<Staged[]> {
  const staged = new Map<number, Staged>();
  for (const group of sharedFetches(sources))
    for (const [index, one] of await stageShared(planning, group)) staged.set(index, one);
  const result: Staged[] = [];
  for (const [index, source] of sources.entries())
    result.push(staged.get(index) ?? (await stage(planning, source)));
  return result;
}

// --- internal ---

/** One source of a shared fetch: its place in the input, its folder there, and any resource picked. */
interface Member {
  readonly index: number;
  readonly source: PackageSource;
  readonly path: string;
  readonly resource?: string | undefined;
}

interface SharedFetch {
  readonly outer: PackageSource;
  readonly members: readonly Member[];
}

/** The fetches two or more of `sources` share, each with the members whose folders are apart. */
function sharedFetches(sources: readonly PackageSource[]): SharedFetch[] {
  const groups = new Map<string, { outer: PackageSource; members: Member[] }>();
  for (const [index, source] of sources.entries()) {
    // a template or recipe of a collection is picked from the collection's folder
    const { resource, ...located } = source;
    const split = sourceOuter(located);
    if (split === undefined) continue;
    const key = canonicalJson(split.source);
    const group = groups.get(key) ?? { outer: split.source, members: [] };
    group.members.push({ index, source: located, path: split.path, resource });
    groups.set(key, group);
  }
  return [...groups.values()]
    .map((group) => ({ ...group, members: apart(group.members, (one) => one.path, ".") }))
    .filter((group) => group.members.length > 1);
}

/**
 * Fetch `group.outer` once and stage each member from its folder in it; a member whose real
 * folder holds or lies in another's (a symlink inside the fetch) is left to be staged alone.
 */
async function stageShared(
  planning: StagePlanning,
  group: SharedFetch,
): Promise<Map<number, Staged>> {
  planning.request.progress?.({ phase: "stage", source: describeSource(group.outer) });
  const staged = new Map<number, Staged>();
  let whole: FetchedSource;
  try {
    whole = planning.staging.add(await fetchSource(group.outer, planning.request.stage));
  } catch (error) {
    const refused = { refusal: refusalOf(error) };
    for (const member of group.members) staged.set(member.index, refused);
    return staged;
  }
  const found: { member: Member; fetched: FetchedSource }[] = [];
  for (const member of group.members) {
    try {
      found.push({ member, fetched: fetchedWithin(whole, member.path, member.source) });
    } catch (error) {
      staged.set(member.index, { refusal: refusalOf(error) });
    }
  }
  for (const { member, fetched } of apart(found, (one) => one.fetched.dir, whole.dir)) {
    const pick = member.resource === undefined ? undefined : [member.resource];
    const [one] = await stageFetched(planning, fetched, pick);
    if (one !== undefined) staged.set(member.index, one);
  }
  return staged;
}

/**
 * The items whose folder (`folderOf`, a path below `top` or `top` itself) is no other item's and
 * neither holds nor lies in another's: each can be staged where it is without touching another.
 */
function apart<T>(items: readonly T[], folderOf: (item: T) => string, top: string): T[] {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(folderOf(item), (counts.get(folderOf(item)) ?? 0) + 1);
  const holding = new Set<string>();
  const held = new Set<T>();
  for (const item of items) {
    for (let folder = folderOf(item); folder !== top; ) {
      const up = top === "." ? parentPath(folder) : dirname(folder);
      if (up === folder) break;
      folder = up;
      if (counts.has(folder)) {
        holding.add(folder);
        held.add(item);
      }
    }
  }
  return items.filter(
    (item) => counts.get(folderOf(item)) === 1 && !holding.has(folderOf(item)) && !held.has(item),
  );
}

/** The folder holding the `/`-separated relative path `path`: `.` for a top-level one. */
function parentPath(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "." : path.slice(0, slash);
}
