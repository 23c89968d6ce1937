import { existsSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { normalizeRelativePath, type PackageSource } from "@skillshelf/core";

/**
 * A source text resolved, or why it cannot be: `source_invalid` (not a source Skillshelf reads),
 * `source_protocol_refused` (a git transport that runs commands, such as `ext::` or `fd::`) or
 * `source_ref_invalid` (a ref or fragment that is not a plain branch, tag or commit).
 */
export type ParsedSource =
  | { readonly ok: true; readonly source: PackageSource }
  | {
      readonly ok: false;
      readonly code: "source_invalid" | "source_protocol_refused" | "source_ref_invalid";
      readonly problem: string;
    };

// `owner/repo`, GitHub's shorthand; `.`-led names are paths
const SHORTHAND = /^[\w-][\w.-]*\/[\w-][\w.-]*$/;
const ARCHIVE = /\.(tar\.gz|tgz|zip)$/i;
// a repository page on a well-known host, which git serves at the same URL plus `.git`
const HOSTED_REPOSITORY =
  /^(https:\/\/(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)\/[\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/;
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
 * - `https://<github.com|gitlab.com|bitbucket.org|codeberg.org>/<owner>/<repo>`: that repository;
 * - an `http(s)://` URL ending in `.tar.gz`, `.tgz` or `.zip` (fragment `#path=<subfolder>`): an
 *   archive.
 *
 * A git URL may name a subfolder git's way, `<url>//<subfolder>`, before its `#<ref>`.
 *
 * Anything else is refused, as are subfolders that climb out with `..`, git's `<transport>::`
 * remote-helper syntax (`ext::`, `fd::`: they run commands), fragment keys other than `ref` and
 * `path`, and refs git would not take as a branch, tag or commit name (`-x`, `a..b`, `x=y`, …).
 */
export function parseSourceUrl(text: string, baseDir: string): ParsedSource {
  const trimmed = text.trim();
  if (trimmed === "") return invalidSource("the source is empty");
  if (usesRemoteHelper(trimmed.replace(/^git\+/, "")))
    return {
      ok: false,
      code: "source_protocol_refused",
      problem: `${trimmed} uses a git transport that runs commands; only https, ssh, git and file repositories are fetched`,
    };
  const github = GITHUB_TREE.exec(trimmed);
  if (github !== null) {
    // the pattern's first three groups always match; the subfolder may not
    const [, owner = "", repo = "", ref = "", path] = github;
    return gitSource(`https://github.com/${owner}/${repo.replace(/\.git$/, "")}.git`, {
      ref,
      path,
    });
  }
  if (trimmed.startsWith("git+")) {
    const rest = trimmed.slice(4);
    const [url = "", fragment] = splitFragment(rest);
    const [location, subfolder] = splitSubfolder(url);
    const absolute =
      /^[a-z][a-z0-9+.-]*:/i.test(location) || SCP_LIKE.test(location)
        ? location
        : resolve(baseDir, location);
    return git(absolute, fragment, subfolder);
  }
  if (/^(ssh|file):\/\//i.test(trimmed) || SCP_LIKE.test(trimmed)) {
    const [url = "", fragment] = splitFragment(trimmed);
    const [location, subfolder] = splitSubfolder(url);
    return git(location, fragment, subfolder);
  }
  if (/^https?:\/\//i.test(trimmed)) {
    const [url = "", fragment] = splitFragment(trimmed);
    const pathname = URL.canParse(url) ? new URL(url).pathname : undefined;
    if (pathname === undefined) return invalidSource(`${trimmed} is not a valid URL`);
    if (ARCHIVE.test(pathname)) {
      const fields = fragmentFields(fragment, "path");
      if (!fields.ok) return fields;
      if (fields.ref !== undefined)
        return refInvalid(
          `an archive takes no ref (#ref=${fields.ref}); name the archive of that version`,
        );
      return withSubfolder({ type: "archive", url }, fields.path);
    }
    const [location, subfolder] = splitSubfolder(url);
    if (location.endsWith(".git")) return git(location, fragment, subfolder);
    const hosted = HOSTED_REPOSITORY.exec(location);
    if (hosted !== null) return git(`${hosted[1]}.git`, fragment, subfolder);
    return invalidSource(
      `${trimmed} is neither a git repository (end it in .git or prefix git+) nor a .tar.gz or .zip archive`,
    );
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed))
    return invalidSource(`${trimmed} uses a scheme Skillshelf does not fetch from`);
  return {
    ok: true,
    source: {
      type: "local",
      path: isAbsolute(trimmed) ? resolve(trimmed) : resolve(baseDir, trimmed),
    },
  };
}

/**
 * A source as a person types it (DESIGN §5.1): everything `parseSourceUrl` takes, plus
 * `owner/repo` for `https://github.com/<owner>/<repo>.git` (only when no local path of that name
 * exists: `./owner/repo` is always a path), and a local git repository by path (a bare one, or a
 * work tree given a `#ref`), each with an optional `//<subfolder>` and `#<ref>`.
 */
export function parseSourceSpec(text: string, baseDir: string): ParsedSource {
  const [base = "", fragment] = splitFragment(text.trim());
  const [location, subfolder] = splitSubfolder(base);
  if (location !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(location) && !SCP_LIKE.test(location)) {
    const path = resolve(baseDir, location);
    if (isBareRepository(path) || (fragment !== undefined && isDirectory(join(path, ".git"))))
      return git(path, fragment, subfolder);
    if (SHORTHAND.test(location) && !existsSync(path))
      return git(`https://github.com/${location.replace(/\.git$/, "")}.git`, fragment, subfolder);
  }
  return parseSourceUrl(text, baseDir);
}

/** True for git's `<transport>::<address>` syntax, which hands the address to a remote helper (`ext::` runs it as a command). */
export function usesRemoteHelper(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*::/i.test(url);
}

/**
 * True for a ref git can fetch by name: a branch, tag or commit, as `git check-ref-format` would
 * take it (no leading `-`, no `..`, `@{`, space, control character or any of `~^:?*[\\=`, no
 * empty or `.`-led component, not ending in `.` or `.lock`). `=` is refused so that an option
 * such as `--upload-pack=…` can never pass as a ref.
 */
function isGitRef(ref: string): boolean {
  return (
    ref !== "" &&
    ref.length <= 255 &&
    !ref.startsWith("-") &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
    !/[\u0000-\u0020\u007f~^:?*[\\=]/.test(ref) &&
    !ref.includes("..") &&
    !ref.includes("@{") &&
    ref !== "@" &&
    !ref.endsWith(".") &&
    !ref.endsWith(".lock") &&
    ref.split("/").every((part) => part !== "" && !part.startsWith("."))
  );
}

// --- internal ---

/** A source that cannot be read, and why. */
export type SourceRefusal = Extract<ParsedSource, { readonly ok: false }>;

/** The `source_invalid` refusal. */
export function invalidSource(problem: string): SourceRefusal {
  return { ok: false, code: "source_invalid", problem };
}

function refInvalid(problem: string): SourceRefusal {
  return { ok: false, code: "source_ref_invalid", problem };
}

function git(url: string, fragment: string | undefined, subfolder?: string): ParsedSource {
  const fields = fragmentFields(fragment, "ref");
  if (!fields.ok) return fields;
  if (subfolder === undefined) return gitSource(url, fields);
  if (fields.path !== undefined)
    return refInvalid(`${url} names its subfolder twice (//${subfolder} and #path=${fields.path})`);
  return gitSource(url, { ...fields, path: subfolder });
}

/** A git source with an optional ref (checked with `isGitRef`) and subfolder (kept inside). */
export function gitSource(
  url: string,
  fields: { readonly ref?: string | undefined; readonly path?: string | undefined },
): ParsedSource {
  if (url.startsWith("-")) return invalidSource(`${url} is not a repository URL`);
  if (fields.ref !== undefined && !isGitRef(fields.ref))
    return refInvalid(
      `${JSON.stringify(fields.ref)} is not a branch, tag or commit name Skillshelf can fetch`,
    );
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
    return invalidSource(`the subfolder ${path} must be a relative path inside the repository`);
  return { ok: true, source: normalized === "." ? source : { ...source, path: normalized } };
}

/**
 * `<url>//<subfolder>` into its two parts (git's and pnpm's way to name a folder of a
 * repository); the `//` of a scheme and the root `/` of a `file:///` path do not count.
 */
function splitSubfolder(url: string): [string, string | undefined] {
  const scheme = url.indexOf("://");
  const at = url.indexOf("//", scheme === -1 ? 1 : scheme + 4);
  return at === -1 ? [url, undefined] : [url.slice(0, at), url.slice(at + 2)];
}

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

function splitFragment(text: string): [string, string | undefined] {
  const at = text.indexOf("#");
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/**
 * `#v1.2` (a bare value for `bare`) or `#ref=v1.2&path=sub` into fields; any other key, a key
 * given twice, or a bare value with `=` in it is `source_ref_invalid` rather than dropped.
 */
function fragmentFields(
  fragment: string | undefined,
  bare: "ref" | "path",
): { ok: true; ref?: string; path?: string } | SourceRefusal {
  if (fragment === undefined || fragment === "") return { ok: true };
  const refused = (problem: string) =>
    refInvalid(`the fragment #${fragment} ${problem}; write #<ref> or #ref=<ref>&path=<folder>`);
  if (!URL_KEYS.test(fragment)) {
    if (fragment.includes("=")) return refused("is not a ref");
    if (!canDecode(fragment)) return refused("is not valid percent-encoding");
    return { ok: true, [bare]: decodeURIComponent(fragment) };
  }
  const fields: { ok: true; ref?: string; path?: string } = { ok: true };
  for (const [key, value] of new URLSearchParams(fragment)) {
    if (key !== "ref" && key !== "path") return refused(`has the key ${JSON.stringify(key)}`);
    if (fields[key] !== undefined) return refused(`names ${key} twice`);
    fields[key] = value;
  }
  return fields;
}

// a fragment of keys: `ref=…` or `path=…` first, then `&`-joined pairs
const URL_KEYS = /^[^=&]*=/;

function canDecode(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}
