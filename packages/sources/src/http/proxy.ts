import { isLoopbackHost, SkillshelfError } from "@skillshelf/core";

/**
 * The proxies an environment names, read as curl, git and Go's registry clients read them:
 * `https_proxy` (else `HTTPS_PROXY`) for https URLs, `http_proxy` (else `HTTP_PROXY`) for http
 * ones, and `no_proxy` (else `NO_PROXY`) for the hosts reached directly.
 */
export interface ProxySettings {
  readonly https: URL | undefined;
  readonly http: URL | undefined;
  /** `*` (nothing is proxied), or the hosts, suffixes and `host:port`s that are not. */
  readonly noProxy: "*" | readonly NoProxyEntry[];
}

/** One entry of `NO_PROXY`: a host and every name below it, on any port or on one. */
interface NoProxyEntry {
  readonly host: string;
  readonly port: number | undefined;
}

/**
 * The proxy settings of `env`. A proxy written without a scheme is `http://` (as curl reads it);
 * one of another scheme than http or https, or not a URL, is `proxy_invalid`, naming the variable.
 */
export function readProxySettings(
  env: Readonly<Record<string, string | undefined>>,
): ProxySettings {
  const proxy = (name: string): URL | undefined => {
    const variable = [name, name.toUpperCase()].find((key) => (env[key] ?? "").trim() !== "");
    if (variable === undefined) return undefined;
    const text = (env[variable] ?? "").trim();
    const url = URL.canParse(text.includes("://") ? text : `http://${text}`)
      ? new URL(text.includes("://") ? text : `http://${text}`)
      : undefined;
    if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:"))
      throw new SkillshelfError(
        "proxy_invalid",
        `${variable} is not the URL of an http or https proxy`,
        { details: { variable } },
      );
    return url;
  };
  const noProxy = (env.no_proxy ?? env.NO_PROXY ?? "").trim();
  return {
    https: proxy("https_proxy"),
    http: proxy("http_proxy"),
    noProxy: noProxy === "*" ? "*" : noProxy.split(/[\s,]+/).flatMap(noProxyEntry),
  };
}

/**
 * The proxy a request to `url` goes through, `undefined` when it goes directly: always directly
 * to this machine (`localhost`, 127.0.0.0/8, `::1`) and to what `NO_PROXY` names — a host and
 * every name under it (`example.com`, `.example.com` and `*.example.com` alike), on any port or
 * only on the one written (`example.com:8443`).
 */
export function proxyFor(settings: ProxySettings, url: URL): URL | undefined {
  const proxy = url.protocol === "https:" ? settings.https : settings.http;
  if (proxy === undefined || isLoopbackHost(url.hostname) || settings.noProxy === "*")
    return undefined;
  const host = bare(url.hostname);
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const bypassed = settings.noProxy.some(
    (entry) =>
      (entry.port === undefined || entry.port === port) &&
      (host === entry.host || host.endsWith(`.${entry.host}`)),
  );
  return bypassed ? undefined : proxy;
}

/** A proxy as messages name it: its scheme, host and port, never its user or password. */
export function proxyName(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

// --- internal ---

function noProxyEntry(text: string): NoProxyEntry[] {
  const entry = text.replace(/^\*?\./, "").toLowerCase();
  if (entry === "") return [];
  // `host:port`, `[v6]:port` or `[v6]`; a bare IPv6 address has colons of its own
  const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
  return [
    withPort === null
      ? { host: bare(entry), port: undefined }
      : { host: bare(withPort[1] ?? ""), port: Number(withPort[2]) },
  ];
}

/** A host without the brackets of an IPv6 address. */
function bare(host: string): string {
  return host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
}
