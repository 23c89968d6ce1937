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
      readonly code:
        | "source_invalid"
        | "source_protocol_refused"
        | "source_ref_invalid"
        | "source_insecure";
      readonly problem: string;
    };

/** A source that cannot be read, and why. */
export type SourceRefusal = Extract<ParsedSource, { readonly ok: false }>;

/** `git@host:path`, the scp-like address ssh and git take. */
export const SCP_LIKE: RegExp = /^[\w.-]+@[\w.-]+:/;

/** Starts with a URL scheme (`https:`, `git+ssh:`, `ext::`): not a path. */
export function hasScheme(text: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(text);
}

/**
 * `source_insecure` for a plain `http://` URL to anything but this machine (as docker and npm
 * allow it only for a local registry), `undefined` for https or loopback.
 */
export function insecureUrl(url: URL): SourceRefusal | undefined {
  if (url.protocol !== "http:" || LOOPBACK.has(url.hostname)) return undefined;
  return {
    ok: false,
    code: "source_insecure",
    problem: `${url.href} is plain http to another host; only https is fetched from other hosts`,
  };
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * `source_invalid` for an http(s) URL carrying a user or password: a source is written to the
 * lock and shown in every message, so credentials go in `hosts.json` (or git's ssh keys), never
 * in a URL.
 */
export function urlWithCredentials(url: URL): SourceRefusal | undefined {
  if (url.username === "" && url.password === "") return undefined;
  return invalidSource(
    `a URL of ${url.host} holds credentials; configure them in the user library's hosts.json, or use ssh`,
  );
}

/** The `source_invalid` refusal. */
export function invalidSource(problem: string): SourceRefusal {
  return { ok: false, code: "source_invalid", problem };
}

/** The `source_ref_invalid` refusal. */
export function refInvalid(problem: string): SourceRefusal {
  return { ok: false, code: "source_ref_invalid", problem };
}

/** `source` narrowed to `path`, which must stay inside what it names. */
export function withSubfolder(
  source: PackageSource & { type: "git" | "archive" | "well-known" | "npm" | "oci" | "mcp" },
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
export function splitSubfolder(url: string): [string, string | undefined] {
  const scheme = url.indexOf("://");
  const at = url.indexOf("//", scheme === -1 ? 1 : scheme + 4);
  return at === -1 ? [url, undefined] : [url.slice(0, at), url.slice(at + 2)];
}

/** `text#fragment` into its two parts. */
export function splitFragment(text: string): [string, string | undefined] {
  const at = text.indexOf("#");
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** The keys a source's fragment may hold. */
type FragmentKey = "ref" | "path" | "sha256";

/**
 * `#v1.2` (a bare value for `bare`) or `#ref=v1.2&path=sub` into fields; any key not in `keys`,
 * a key given twice, or a bare value with `=` in it is `source_ref_invalid` rather than dropped.
 */
export function fragmentFields(
  fragment: string | undefined,
  bare: "ref" | "path",
  keys: readonly FragmentKey[] = ["ref", "path"],
): ({ ok: true } & { [K in FragmentKey]?: string }) | SourceRefusal {
  if (fragment === undefined || fragment === "") return { ok: true };
  const refused = (problem: string) =>
    refInvalid(
      `the fragment #${fragment} ${problem}; write #<${bare}> or ${keys.map((key) => `${key}=…`).join("&")}`,
    );
  if (!URL_KEYS.test(fragment)) {
    if (fragment.includes("=")) return refused("is not a ref");
    if (!canDecode(fragment)) return refused("is not valid percent-encoding");
    return { ok: true, [bare]: decodeURIComponent(fragment) };
  }
  const fields: { ok: true } & { [K in FragmentKey]?: string } = { ok: true };
  for (const [key, value] of new URLSearchParams(fragment)) {
    const known = keys.find((candidate) => candidate === key);
    if (known === undefined) return refused(`has the key ${JSON.stringify(key)}`);
    if (fields[known] !== undefined) return refused(`names ${key} twice`);
    fields[known] = value;
  }
  return fields;
}

// --- internal ---

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
