import { isAbsolute, resolve } from "node:path";
import { normalizeRelativePath, type PackageSource } from "@skillshelf/core";

/** A source text resolved, or why it cannot be. */
export type ParsedSource =
  | { readonly ok: true; readonly source: PackageSource }
  | { readonly ok: false; readonly problem: string };

const GITHUB_TREE = /^https:\/\/github\.com\/([^/]+)\/([^/]+)\/tree\/([^/]+)(?:\/(.+?))?\/?$/;
const SCP_LIKE = /^[\w.-]+@[\w.-]+:/;

/**
 * Parse a package source as written in an index or on the command line:
 *
 * - a path, relative to `baseDir` or absolute: a local folder;
 * - `https://github.com/<owner>/<repo>/tree/<ref>[/<subfolder>]`: that repository at that ref;
 * - `git+<url>` with an optional fragment `#<ref>` or `#ref=<ref>&path=<subfolder>`, and any
 *   `*.git` https URL, `ssh://`, `git@host:path` or `file://` URL: a git repository (the `git`
 *   CLI decides what it accepts; `git+` followed by a path names a local or bare repository);
 * - an `http(s)://` URL ending in `.tar.gz` or `.tgz` (fragment `#path=<subfolder>`): an archive.
 *
 * Anything else is refused, as are subfolders that climb out with `..`.
 */
export function parseSourceUrl(text: string, baseDir: string): ParsedSource {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, problem: "the source is empty" };
  const github = GITHUB_TREE.exec(trimmed);
  if (github !== null) {
    const [, owner, repo, ref, path] = github as unknown as [
      string,
      string,
      string,
      string,
      string | undefined,
    ];
    return git(`https://github.com/${owner}/${repo.replace(/\.git$/, "")}.git`, { ref, path });
  }
  if (trimmed.startsWith("git+")) {
    const rest = trimmed.slice(4);
    const [url = "", fragment] = splitFragment(rest);
    const location =
      /^[a-z][a-z0-9+.-]*:/i.test(url) || SCP_LIKE.test(url) ? url : resolve(baseDir, url);
    return git(location, fragmentFields(fragment, "ref"));
  }
  if (/^(ssh|file):\/\//i.test(trimmed) || SCP_LIKE.test(trimmed)) {
    const [url = "", fragment] = splitFragment(trimmed);
    return git(url, fragmentFields(fragment, "ref"));
  }
  if (/^https?:\/\//i.test(trimmed)) {
    const [url = "", fragment] = splitFragment(trimmed);
    const pathname = URL.canParse(url) ? new URL(url).pathname : undefined;
    if (pathname === undefined) return { ok: false, problem: `${trimmed} is not a valid URL` };
    if (/\.(tar\.gz|tgz)$/i.test(pathname)) {
      const fields = fragmentFields(fragment, "path");
      return withSubfolder({ type: "archive", url }, fields.path);
    }
    if (pathname.endsWith(".git")) return git(url, fragmentFields(fragment, "ref"));
    return {
      ok: false,
      problem: `${trimmed} is neither a git repository (end it in .git or prefix git+) nor a .tar.gz archive`,
    };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed))
    return { ok: false, problem: `${trimmed} uses a scheme Skillshelf does not fetch from` };
  return {
    ok: true,
    source: {
      type: "local",
      path: isAbsolute(trimmed) ? resolve(trimmed) : resolve(baseDir, trimmed),
    },
  };
}

// --- internal ---

function git(
  url: string,
  fields: { ref?: string | undefined; path?: string | undefined },
): ParsedSource {
  if (url.startsWith("-")) return { ok: false, problem: `${url} is not a repository URL` };
  if (fields.ref?.startsWith("-")) return { ok: false, problem: `${fields.ref} is not a ref` };
  return withSubfolder(
    { type: "git", url, ...(fields.ref === undefined ? {} : { ref: fields.ref }) },
    fields.path,
  );
}

function withSubfolder(
  source: PackageSource & { type: "git" | "archive" },
  path: string | undefined,
): ParsedSource {
  if (path === undefined) return { ok: true, source };
  const normalized = normalizeRelativePath(path);
  if (normalized === undefined)
    return {
      ok: false,
      problem: `the subfolder ${path} must be a relative path inside the repository`,
    };
  return { ok: true, source: normalized === "." ? source : { ...source, path: normalized } };
}

function splitFragment(text: string): [string, string | undefined] {
  const at = text.indexOf("#");
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** `#v1.2` (a bare value for `bare`) or `#ref=v1.2&path=sub` into fields. */
function fragmentFields(
  fragment: string | undefined,
  bare: "ref" | "path",
): { ref?: string; path?: string } {
  if (fragment === undefined || fragment === "") return {};
  if (!fragment.includes("=")) return { [bare]: decodeURIComponent(fragment) };
  const fields: { ref?: string; path?: string } = {};
  for (const [key, value] of new URLSearchParams(fragment))
    if (key === "ref" || key === "path") fields[key] = value;
  return fields;
}
