import { SkillshelfError } from "@skillshelf/core";
import { fetchOver, type HttpClient, type HttpInit } from "./http/client.js";

/** A mirror rule: a URL prefix, the prefix it is fetched from instead, and the file that set it. */
export interface MirrorRule {
  readonly from: string;
  readonly to: string;
  readonly file?: string | undefined;
}

/**
 * The mirror rules a fetch applies, tried in order (the first whose `from` a URL starts with wins),
 * and, when `only` names the file that asks it, that a fetch no rule rewrites is refused.
 */
export interface Mirrors {
  readonly rules: readonly MirrorRule[];
  readonly only?: { readonly file: string } | undefined;
}

/**
 * `url` rewritten by the first rule of `mirrors` whose `from` it starts with (at a boundary: a
 * rule for `https://git.example` does not take `https://git.example.evil/`), and that rule; or
 * `undefined` when no rule applies.
 */
export function mirrored(
  url: string,
  mirrors: Mirrors | undefined,
): { readonly url: string; readonly rule: MirrorRule } | undefined {
  for (const rule of mirrors?.rules ?? []) {
    if (!url.startsWith(rule.from)) continue;
    const next = url.charAt(rule.from.length);
    if (/[/:]$/.test(rule.from) || next === "" || "/:?#".includes(next))
      return { url: rule.to + url.slice(rule.from.length), rule };
  }
  return undefined;
}

/**
 * The mirror a fetch that starts at `url` goes through: the rule that rewrites it, `undefined`
 * when none does; `mirror_required` when none does and the mirrors say every fetch must, naming
 * the rule that would be needed.
 */
export function mirrorFor(url: string, mirrors: Mirrors | undefined): MirrorRule | undefined {
  const hit = mirrored(url, mirrors);
  if (hit !== undefined || mirrors?.only === undefined) return hit?.rule;
  const from = URL.canParse(url) ? `${new URL(url).origin}/` : url;
  throw new SkillshelfError(
    "mirror_required",
    `${url} would be fetched from its upstream, but ${mirrors.only.file} sets mirror-only and no mirror rule rewrites it (one with from: ${from} would)`,
    { details: { url, from, file: mirrors.only.file } },
  );
}

/**
 * `client` with every request's URL rewritten by `mirrors` first (a package's tarball named by
 * its registry is fetched from the mirror too). Headers a caller set for the upstream's origin
 * (an `authorization` a library computed for it) do not go to another origin: a mirror gets only
 * the credentials configured for its own.
 */
export function mirroredClient(client: HttpClient, mirrors: Mirrors): HttpClient {
  const route = (url: URL): URL => {
    const hit = mirrored(url.href, mirrors);
    return hit === undefined ? url : new URL(hit.url);
  };
  const request = (url: URL, init: HttpInit = {}) => {
    const to = route(url);
    return client.request(to, to.origin === url.origin ? init : withoutOwnCredentials(init));
  };
  return {
    request,
    proxyFor: (url) => client.proxyFor(route(url)),
    fetchWith: (credentials) => fetchOver(request, credentials),
  };
}

// --- internal ---

const CREDENTIAL_HEADERS = new Set(["authorization", "cookie", "proxy-authorization"]);

function withoutOwnCredentials(init: HttpInit): HttpInit {
  const headers = Object.fromEntries(
    Object.entries(init.headers ?? {}).filter(
      ([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase()),
    ),
  );
  return { ...init, headers };
}
