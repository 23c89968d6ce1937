import { type Dirent, lstatSync } from "node:fs";
import { join, relative, sep } from "node:path";
import {
  AGENT_PROJECT_SKILL_FOLDERS,
  createDiagnostic,
  type Diagnostic,
  errnoCode,
  isInside,
  listSorted,
  normalizeRelativePath,
  parseJsonDocument,
  readRegularFile,
  realpathOrUndefined,
} from "@skillshelf/core";
import { GIT_DIR } from "./_git.js";

/**
 * Where a repository keeps the marketplace that lists its plugins: Claude Code's, Codex's and
 * Copilot's, which mirror one another (the first found is read).
 */
export const MARKETPLACE_FILES: readonly string[] = [
  ".claude-plugin/marketplace.json",
  ".agents/plugins/marketplace.json",
  ".github/plugin/marketplace.json",
];

/** How deep the search below the root goes when no layout holds a skill: category folders of category folders. */
export const MAX_SEARCH_DEPTH = 8;
/** How many folders that search opens at most. */
const MAX_SEARCH_FOLDERS = 100_000;

/** The layouts a collection's skills are looked for in, in order (named by `collection_empty`). */
export const COLLECTION_LAYOUTS: readonly string[] = [
  "SKILL.md at the root",
  "skills/<name>/ and skills/<group>/<name>/",
  "every agent's project skill folder (.claude/skills/<name>/, .agents/skills/<name>/, …)",
  "the plugins and skills a marketplace.json declares (.claude-plugin/, .agents/plugins/, .github/plugin/)",
  "<name>/ at the root",
  `category folders below the root, at most ${MAX_SEARCH_DEPTH} deep`,
];

/** A folder that looked like a skill but leads out of the collection (`collection_link_outside`). */
interface OutsideLink {
  /** The link as found, relative to the collection, `/`-separated. */
  readonly path: string;
}

/** Where a collection's skills are: each skill folder once, by its real path inside the root. */
export interface SkillFolders {
  /** `.` for a `SKILL.md` at the root; else real paths relative to the root, `/`-separated, in layout order. */
  readonly folders: readonly string[];
  readonly outside: readonly OutsideLink[];
  readonly diagnostics: readonly Diagnostic[];
  /**
   * The skill folders a search of every folder would also find, counted by the top-level folder
   * holding them (`composio-skills`), left out since an earlier layout held skills.
   */
  readonly passedOver: readonly PassedOver[];
}

/** Skill folders below one top-level folder that the layouts passed over. */
export interface PassedOver {
  readonly folder: string;
  readonly count: number;
}

/**
 * The skill folders of the collection at `root` (a real path), as authors lay them out (DESIGN
 * §5.1): a `SKILL.md` at the root makes the folder one skill; else the conventional layouts;
 * when they hold none, the skill folders directly at the root; when those hold none, a search of category folders
 * (never into `.git`, `node_modules` or a skill folder, at most `MAX_SEARCH_DEPTH` deep and
 * `MAX_SEARCH_FOLDERS` folders). A folder reached through a symlink that stays inside counts once,
 * by its real path; one that leads outside is reported (`collection_link_outside`) and left out,
 * as are link loops (`collection_link_loop`) and what lies past the limits (`collection_too_deep`,
 * `collection_too_large`).
 */
export function findSkillFolders(
  root: string,
  options: {
    /** Every layout and the search of every folder, together, rather than the first that holds skills. */
    readonly fullDepth?: boolean | undefined;
  } = {},
): SkillFolders {
  if (hasSkillFile(join(root, "SKILL.md")))
    return { folders: ["."], outside: [], diagnostics: [], passedOver: [] };
  const found = createFound(root);
  const all = options.fullDepth === true;
  // each layout is looked at only when the ones before it hold no skill
  for (const folder of conventionalFolders(root)) found.add(folder);
  if (all || found.folders.length === 0)
    for (const folder of childrenOf(root, ".")) if (hasSkill(root, folder.path)) found.add(folder);
  if (all || found.folders.length === 0) {
    searchCategories(root, found);
    return found;
  }
  // what the search would have found besides: counted, so the plan can say how to reach it
  const probe = createFound(root);
  searchCategories(root, probe);
  const known = new Set(found.folders);
  const counts = new Map<string, number>();
  for (const folder of probe.folders) {
    if (known.has(folder)) continue;
    const top = folder.split("/")[0] ?? folder;
    counts.set(top, (counts.get(top) ?? 0) + 1);
  }
  found.passedOver.push(...[...counts].map(([folder, count]) => ({ folder, count })));
  return found;
}

// --- internal ---

/** A folder (or a link) inside the collection: as found, and where it really is (none: it does not resolve). */
interface Child {
  readonly path: string;
  readonly real: string | undefined;
}

interface Found extends SkillFolders {
  readonly folders: string[];
  readonly outside: OutsideLink[];
  readonly diagnostics: Diagnostic[];
  readonly passedOver: PassedOver[];
  /** Record the skill folder found at `path` once, by its real path; a link out is reported. */
  add(folder: Child): void;
}

function createFound(root: string): Found {
  const seen = new Set<string>();
  const found: Found = {
    folders: [],
    outside: [],
    diagnostics: [],
    passedOver: [],
    add({ path, real }) {
      if (real === undefined) return;
      if (!isInside(root, real)) {
        if (found.outside.some((link) => link.path === path)) return;
        found.outside.push({ path });
        found.diagnostics.push(
          createDiagnostic(
            "warning",
            "collection_link_outside",
            `${path} leads out of the collection (to ${real}); that skill is left out`,
            { path: join(root, path), details: { skill: path } },
          ),
        );
        return;
      }
      if (seen.has(real)) return;
      seen.add(real);
      found.folders.push(real === root ? "." : relative(root, real).split(sep).join("/"));
    },
  };
  return found;
}

/** Every folder a conventional layout names, relative to `root`, in layout order. */
function conventionalFolders(root: string): Child[] {
  const skillsIn = (path: string) =>
    childrenOf(root, path).filter((folder) => hasSkill(root, folder.path));
  const folders: Child[] = [];
  for (const child of childrenOf(root, "skills")) {
    if (hasSkill(root, child.path)) folders.push(child);
    else folders.push(...skillsIn(child.path));
  }
  for (const agentRoot of AGENT_PROJECT_SKILL_FOLDERS) folders.push(...skillsIn(agentRoot));
  for (const declared of marketplaceFolders(root)) {
    if (hasSkill(root, declared))
      folders.push({ path: declared, real: realpathOrUndefined(join(root, declared)) });
    else folders.push(...skillsIn(`${declared}/skills`));
  }
  return folders;
}

// never searched: git's data, installed dependencies
const NOT_SEARCHED = new Set([GIT_DIR, "node_modules"]);

/** Search category folders below `root` for skill folders, breadth first, within the limits. */
function searchCategories(root: string, found: Found): void {
  // each entry: a folder as found, and the real folders from the root down to it
  let level: { path: string; line: readonly string[] }[] = [{ path: ".", line: [root] }];
  const searched = new Set<string>([root]);
  let opened = 0;
  let tooDeep = false;
  for (let depth = 1; level.length > 0; depth += 1) {
    const next: typeof level = [];
    for (const { path, line } of level) {
      for (const entry of childrenOf(root, path, line[line.length - 1])) {
        const { path: child, real } = entry;
        if (NOT_SEARCHED.has(child.slice(child.lastIndexOf("/") + 1))) continue;
        if (real === undefined) continue;
        if (hasSkill(root, child)) {
          found.add(entry);
          continue;
        }
        if (!isInside(root, real)) continue;
        if (line.includes(real)) {
          found.diagnostics.push(
            createDiagnostic(
              "warning",
              "collection_link_loop",
              `${child} links back to a folder above it; it is not searched again`,
              { path: join(root, child) },
            ),
          );
          continue;
        }
        if (searched.has(real)) continue;
        searched.add(real);
        if (depth >= MAX_SEARCH_DEPTH) {
          // said once: past the limit, a tree is usually deep everywhere
          if (!tooDeep)
            found.diagnostics.push(
              createDiagnostic(
                "warning",
                "collection_too_deep",
                `${child} is ${depth} folders deep; skills are looked for at most ${MAX_SEARCH_DEPTH} deep`,
                { path: join(root, child), details: { limit: MAX_SEARCH_DEPTH } },
              ),
            );
          tooDeep = true;
          continue;
        }
        opened += 1;
        if (opened > MAX_SEARCH_FOLDERS) {
          found.diagnostics.push(
            createDiagnostic(
              "warning",
              "collection_too_large",
              `the search for skills stopped at ${child} after ${MAX_SEARCH_FOLDERS} folders`,
              { path: join(root, child), details: { limit: MAX_SEARCH_FOLDERS } },
            ),
          );
          return;
        }
        next.push({ path: child, line: [...line, real] });
      }
    }
    level = next;
  }
}

/** The skill folders and plugin folders a repository's marketplace declares, kept inside. */
function marketplaceFolders(root: string): string[] {
  const path = MARKETPLACE_FILES.map((file) => join(root, file)).find(
    (candidate) => lstatOrUndefined(candidate)?.isFile() === true,
  );
  if (path === undefined) return [];
  let parsed: ReturnType<typeof parseJsonDocument>;
  try {
    parsed = parseJsonDocument(readRegularFile(path, MAX_MARKETPLACE_BYTES).toString("utf8"));
  } catch {
    return [];
  }
  if (!parsed.ok) return [];
  const plugins = (parsed.value as { plugins?: unknown }).plugins;
  if (!Array.isArray(plugins)) return [];
  const folders: string[] = [];
  for (const plugin of plugins as { source?: unknown; skills?: unknown }[]) {
    if (typeof plugin !== "object" || plugin === null) continue;
    if (Array.isArray(plugin.skills)) folders.push(...plugin.skills.filter(isString));
    else if (typeof plugin.source === "string") folders.push(plugin.source);
  }
  return folders.flatMap((folder) => {
    const normalized = normalizeRelativePath(folder);
    return normalized === undefined ? [] : [normalized];
  });
}

const MAX_MARKETPLACE_BYTES = 1024 * 1024;

function hasSkill(root: string, folder: string): boolean {
  return hasSkillFile(join(root, folder, "SKILL.md"));
}

/**
 * The folders (or links) inside `path`, relative to `root`, sorted; none where it cannot be read.
 * `real` is the real path of `path` when known: a folder in it is then found there without
 * resolving it again (only a link is).
 */
function childrenOf(root: string, path: string, real?: string): Child[] {
  const dir = join(root, path);
  let entries: Dirent[];
  try {
    entries = listSorted(dir);
  } catch {
    return [];
  }
  const children = entries.filter(
    (entry) => entry.name !== GIT_DIR && (entry.isDirectory() || entry.isSymbolicLink()),
  );
  if (children.length === 0) return [];
  const dirReal = real ?? realpathOrUndefined(dir);
  return children.map((entry) => ({
    path: path === "." ? entry.name : `${path}/${entry.name}`,
    real:
      entry.isDirectory() && dirReal !== undefined
        ? join(dirReal, entry.name)
        : realpathOrUndefined(join(dir, entry.name)),
  }));
}

/** A `SKILL.md` a collection offers: a file, or a symlink (read only if it stays inside). */
function hasSkillFile(path: string): boolean {
  const stats = lstatOrUndefined(path);
  return stats?.isFile() === true || stats?.isSymbolicLink() === true;
}

/** `lstat`, or `undefined` where nothing is, also below a file (a folder found as a link to one). */
function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    const code = errnoCode(error);
    if (code === "ENOTDIR" || code === "ENAMETOOLONG") return undefined;
    throw error;
  }
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}
