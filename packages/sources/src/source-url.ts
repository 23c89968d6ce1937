import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { gitAt } from "./fetchers/_git-syntax.js";
import {
  hasScheme,
  invalidSource,
  type ParsedSource,
  SCP_LIKE,
  splitFragment,
  splitSubfolder,
} from "./fetchers/_syntax.js";
import { SOURCE_FETCHERS } from "./fetchers/index.js";

export type { ParsedSource } from "./fetchers/_syntax.js";

// `owner/repo`, GitHub's shorthand; `.`-led names are paths
const SHORTHAND = /^[\w-][\w.-]*\/[\w-][\w.-]*$/;

/**
 * Parse a package source as written in an index or on the command line: each fetcher of
 * `SOURCE_FETCHERS` is asked in turn and the first that takes the text decides (an archive's
 * URL, a git repository, a folder's path: see each fetcher's `parse`). A text no fetcher takes
 * is `source_invalid`, naming what each would have taken.
 */
export function parseSourceUrl(text: string, baseDir: string): ParsedSource {
  const trimmed = text.trim();
  if (trimmed === "") return invalidSource("the source is empty");
  const fetchers = Object.values(SOURCE_FETCHERS);
  for (const fetcher of fetchers) {
    const parsed = fetcher.parse(trimmed, baseDir);
    if (parsed !== undefined) return parsed;
  }
  return invalidSource(
    `${trimmed} is not a source Skillshelf fetches: ${fetchers.map((fetcher) => fetcher.syntax).join("; ")}`,
  );
}

/**
 * A source as a person types it: everything `parseSourceUrl` takes, plus
 * `owner/repo` for `https://github.com/<owner>/<repo>.git` (only when no local path of that name
 * exists: `./owner/repo` is always a path), and a local git repository by path (a bare one, or a
 * work tree given a `#ref`), each with an optional `//<subfolder>` and `#<ref>`.
 */
export function parseSourceSpec(text: string, baseDir: string): ParsedSource {
  const [base = "", fragment] = splitFragment(text.trim());
  const [location, subfolder] = splitSubfolder(base);
  if (location !== "" && !hasScheme(location) && !SCP_LIKE.test(location)) {
    const path = resolve(baseDir, location);
    if (isBareRepository(path) || (fragment !== undefined && isDirectory(join(path, ".git"))))
      return gitAt(path, fragment, subfolder);
    if (SHORTHAND.test(location) && !existsSync(path))
      return gitAt(`https://github.com/${location.replace(/\.git$/, "")}.git`, fragment, subfolder);
  }
  return parseSourceUrl(text, baseDir);
}

// --- internal ---

function isBareRepository(path: string): boolean {
  return (
    isDirectory(join(path, "objects")) &&
    isDirectory(join(path, "refs")) &&
    existsSync(join(path, "HEAD"))
  );
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    // absent, or under a file (ENOTDIR): not a folder either way
    return false;
  }
}
