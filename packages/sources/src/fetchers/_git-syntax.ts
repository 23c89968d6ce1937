import { resolve } from "node:path";
import {
  fragmentFields,
  hasScheme,
  invalidSource,
  type ParsedSource,
  refInvalid,
  SCP_LIKE,
  splitFragment,
  splitSubfolder,
  urlWithCredentials,
  withSubfolder,
} from "./_syntax.js";

// a repository page on a well-known host, which git serves at the same URL plus `.git`
const HOSTED_REPOSITORY =
  /^(https:\/\/(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)\/[\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/;
const GITHUB_TREE = /^https:\/\/github\.com\/([^/]+)\/([^/]+)\/tree\/([^/]+)(?:\/(.+?))?\/?$/;

/**
 * A git repository as written in an index or on the command line, or `undefined` for a text that
 * is not git's: `https://github.com/<owner>/<repo>/tree/<ref>[/<subfolder>]`; `git+<url or path>`;
 * any `ssh://`, `file://` or `git@host:` address; an `http(s)://` URL ending in `.git`, or the
 * page of a repository on GitHub, GitLab, Bitbucket or Codeberg. Each takes `//<subfolder>`
 * before `#<ref>` (or `#ref=<ref>&path=<subfolder>`). git's `<transport>::` syntax (`ext::`,
 * `fd::`: they run commands) is claimed and refused.
 */
export function parseGit(text: string, baseDir: string): ParsedSource | undefined {
  if (usesRemoteHelper(text.replace(/^git\+/, "")))
    return {
      ok: false,
      code: "source_protocol_refused",
      problem: `${text} uses a git transport that runs commands; only https, ssh, git and file repositories are fetched`,
    };
  const github = GITHUB_TREE.exec(text);
  if (github !== null) {
    // the pattern's first three groups always match; the subfolder may not
    const [, owner = "", repo = "", ref = "", path] = github;
    return gitSource(`https://github.com/${owner}/${repo.replace(/\.git$/, "")}.git`, {
      ref,
      path,
    });
  }
  if (text.startsWith("git+")) {
    const [url = "", fragment] = splitFragment(text.slice(4));
    const [location, subfolder] = splitSubfolder(url);
    const absolute =
      hasScheme(location) || SCP_LIKE.test(location) ? location : resolve(baseDir, location);
    return gitAt(absolute, fragment, subfolder);
  }
  if (/^(ssh|file):\/\//i.test(text) || SCP_LIKE.test(text)) {
    const [url = "", fragment] = splitFragment(text);
    const [location, subfolder] = splitSubfolder(url);
    return gitAt(location, fragment, subfolder);
  }
  if (!/^https?:\/\//i.test(text)) return undefined;
  const [url = "", fragment] = splitFragment(text);
  if (!URL.canParse(url)) return undefined;
  const [location, subfolder] = splitSubfolder(url);
  if (location.endsWith(".git")) return gitAt(location, fragment, subfolder);
  const hosted = HOSTED_REPOSITORY.exec(location);
  return hosted === null ? undefined : gitAt(`${hosted[1]}.git`, fragment, subfolder);
}

/** True for git's `<transport>::<address>` syntax, which hands the address to a remote helper (`ext::` runs it as a command). */
export function usesRemoteHelper(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*::/i.test(url);
}

/** A repository at `url`, with the ref and subfolder of a fragment and a `//` subfolder. */
export function gitAt(url: string, fragment: string | undefined, subfolder?: string): ParsedSource {
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
  // every spelling (`git+https://…`, a page, a `.git` URL) ends here, so one check covers them
  const web = /^https?:\/\//i.test(url) && URL.canParse(url) ? new URL(url) : undefined;
  const withCredentials = web === undefined ? undefined : urlWithCredentials(web);
  if (withCredentials !== undefined) return withCredentials;
  if (fields.ref !== undefined && !isGitRef(fields.ref))
    return refInvalid(
      `${JSON.stringify(fields.ref)} is not a branch, tag or commit name Skillshelf can fetch`,
    );
  return withSubfolder(
    { type: "git", url, ...(fields.ref === undefined ? {} : { ref: fields.ref }) },
    fields.path,
  );
}

// --- internal ---

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
