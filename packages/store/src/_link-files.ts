import { lstatSync, readFileSync, readlinkSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import {
  agentFolder,
  digestTree,
  isFolderLike,
  isInside,
  type LinkKind,
  type PackageScope,
  realpathOrUndefined,
  SkillshelfError,
  sha256,
} from "@skillshelf/core";
import { isRelativeInside } from "./_record-fields.js";
import type { LinkRecord } from "./_record-types.js";
import type { ScopeState } from "./types.js";

// The files of a link in another agent's folder: where it goes, what is there, how
// it is made and taken away. The writers in `links.ts` decide when.

/**
 * True when `key` is where a link of that agent and kind goes in `scope`: inside the agent's
 * folder from the table, a single name for a skill (a journal read back names nothing else).
 */
export function isLinkKey(
  scope: PackageScope,
  link: { readonly key: string; readonly record: Pick<LinkRecord, "agent" | "kind"> },
): boolean {
  const folder = agentFolder(link.record.agent, scope, link.record.kind);
  if (folder === undefined || !link.key.startsWith(`${folder}/`)) return false;
  const name = link.key.slice(folder.length + 1);
  return isRelativeInside(name) && !(isFolderLike(link.record.kind) && name.includes("/"));
}

/** The text a symlink at `path` holds to reach `target`: relative, so a moved project still works. */
export function linkText(path: string, target: string): string {
  return relative(dirname(path), target);
}

/**
 * The digest of what a link exposes: a folder's tree digest (a `bare` copy's without the
 * package manifest at its top), a file's sha256.
 */
export function exposedDigest(path: string, kind: LinkKind, bare?: boolean): string {
  if (!isFolderLike(kind)) return sha256(readFileSync(path));
  return digestTree(path, bare === true ? { skip: manifestAtTop } : {}).digest;
}

/** What a `bare` copy leaves out: the package manifest at the top of the folder it copies. */
export function manifestAtTop(_name: string, relative: string): boolean {
  return relative === "plugin.json";
}

/** What is at a link's path, as a person would describe it. */
export type FoundAtLink =
  | { readonly kind: "nothing" }
  | { readonly kind: "symlink"; readonly to: string; readonly dangling: boolean }
  | { readonly kind: "folder" | "file" | "other" };

export function foundAt(path: string): FoundAtLink {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return { kind: "nothing" };
  if (stat.isSymbolicLink())
    return {
      kind: "symlink",
      to: readlinkSync(path),
      dangling: realpathOrUndefined(path) === undefined,
    };
  return { kind: stat.isDirectory() ? "folder" : stat.isFile() ? "file" : "other" };
}

/** True when what is at `path` is the link `record` describes, made from `target`. */
export function isOurLink(
  path: string,
  target: string,
  record: Pick<LinkRecord, "mode" | "kind" | "digest"> & { readonly bare?: boolean | undefined },
): boolean {
  const found = foundAt(path);
  if (record.mode === "symlink")
    return found.kind === "symlink" && found.to === linkText(path, target);
  if (found.kind !== (isFolderLike(record.kind) ? "folder" : "file")) return false;
  try {
    return exposedDigest(path, record.kind, record.bare) === record.digest;
  } catch {
    return false;
  }
}

/**
 * Refuse a link whose folder is not a plain folder inside the scope's base: every folder from the
 * base down to the link's parent must be a real folder or not exist yet, never a symlink (an agent
 * folder linked to somewhere else is left as it is: `link_unsafe`).
 */
export function assertLinkFolderSafe(base: string, path: string): void {
  const parent = dirname(path);
  if (!isInside(base, parent))
    throw new SkillshelfError("link_unsafe", `${path} is not inside ${base}`, { path });
  const steps = relative(base, parent)
    .split(sep)
    .filter((segment) => segment !== "");
  let current = base;
  for (const segment of steps) {
    current = join(current, segment);
    const stat = lstatSync(current, { throwIfNoEntry: false });
    if (stat === undefined) return;
    if (stat.isSymbolicLink() || !stat.isDirectory())
      throw new SkillshelfError(
        "link_unsafe",
        `${current} is ${stat.isSymbolicLink() ? `a symlink to ${readlinkSync(current)}` : "not a folder"}, so nothing is linked inside it`,
        {
          path: current,
          details: { found: stat.isSymbolicLink() ? "symlink" : "file" },
        },
      );
  }
}

/** What is at a link's path, in words. */
export function describeFound(found: FoundAtLink): string {
  switch (found.kind) {
    case "symlink":
      return `${found.dangling ? "a dangling symlink" : "a symlink"} to ${found.to}`;
    case "folder":
      return "a folder";
    case "file":
      return "a file";
    default:
      return "something that is neither a file nor a folder";
  }
}

/** The state with its links table set, left out when empty. */
export function withLinks(
  state: ScopeState,
  links: Readonly<Record<string, LinkRecord>>,
): ScopeState {
  const { links: _old, ...rest } = state;
  return Object.keys(links).length === 0 ? rest : { ...rest, links };
}
