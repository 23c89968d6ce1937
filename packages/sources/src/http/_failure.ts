import { errnoCode, isLoopbackHost, isSkillshelfError, SkillshelfError } from "@skillshelf/core";
import { proxyName } from "./proxy.js";

/**
 * A request that failed, coded by what failed: the caller's signal (`download_timeout` for a
 * timeout, `aborted`), the proxy (`proxy_unreachable`: with a proxy every connection is to it;
 * `proxy_auth_required` for its 407, `proxy_refused` for another answer to CONNECT), TLS
 * (`server_not_tls` for a server speaking plain HTTP, `tls_untrusted` for a certificate not
 * trusted here), else `download_failed`. It names the URL and the proxy, never a credential.
 */
export function requestFailed(
  url: URL,
  error: unknown,
  context: { readonly proxy?: URL | undefined; readonly signal?: AbortSignal | undefined },
): SkillshelfError {
  if (isSkillshelfError(error)) return error;
  const { proxy, signal } = context;
  const via = proxy === undefined ? {} : { proxy: proxyName(proxy) };
  const coded = (code: FailureCode, message: string, details: Record<string, unknown> = {}) =>
    new SkillshelfError(code, message, {
      cause: error,
      details: { url: url.href, ...via, ...details },
    });
  if (signal?.aborted === true) {
    const timeout = (signal.reason as Error | undefined)?.name === "TimeoutError";
    return timeout
      ? coded("download_timeout", `${url.href} did not answer in time`)
      : coded("aborted", `the request to ${url.href} was cancelled`);
  }
  const code = errnoCode(error) ?? errnoCode((error as Error | undefined)?.cause) ?? "";
  const message = error instanceof Error ? error.message : String(error);
  if (proxy !== undefined) {
    const refused = /^Proxy .*\((\d{3})\)/.exec(message);
    if (refused !== null) {
      const status = Number(refused[1]);
      return status === 407
        ? coded(
            "proxy_auth_required",
            `the proxy ${proxyName(proxy)} asked for ${proxy.username === "" ? "credentials, and its URL holds none" : "credentials, and refused the ones its URL holds"}`,
            { status },
          )
        : coded(
            "proxy_refused",
            `the proxy ${proxyName(proxy)} would not connect to ${url.host} (HTTP ${status})`,
            { status },
          );
    }
    if (code === TUNNEL_DROPPED)
      return coded(
        "proxy_refused",
        `the proxy ${proxyName(proxy)} closed the connection instead of tunnelling to ${url.host}`,
      );
    if (CONNECTING.has(code))
      return coded(
        "proxy_unreachable",
        `could not reach the proxy ${proxyName(proxy)} to download ${url.href} (${code})`,
      );
  }
  if (TIMEOUTS.has(code)) return coded("download_timeout", `${url.href} did not answer in time`);
  if (/WRONG_VERSION_NUMBER|packet length too long/i.test(`${code} ${message}`))
    return coded(
      "server_not_tls",
      `${url.host} does not speak TLS, so ${url.href} cannot be fetched over https`,
      isLoopbackHost(url.hostname) ? { suggestion: url.href.replace(/^https:/, "http:") } : {},
    );
  if (UNTRUSTED.has(code))
    return coded(
      "tls_untrusted",
      `the certificate of ${url.host} is not trusted here (${code}), so ${url.href} was not fetched`,
    );
  return coded("download_failed", `could not download ${url.href} (${code || message})`);
}

/** The code of a tunnel the proxy closed before answering CONNECT (our client's own). */
export const TUNNEL_DROPPED = "SKILLSHELF_TUNNEL_DROPPED";

/**
 * A 401 or 403 answer: `auth_refused` when credentials went with the request, else
 * `auth_required`. `asked` says what was asked of whom; `details.host` is the host they are for.
 */
export function authFailure(
  asked: string,
  answer: { readonly status: number; readonly signed: boolean },
  details: { readonly url: string; readonly host: string } & Record<string, unknown>,
): SkillshelfError {
  const { status, signed } = answer;
  return new SkillshelfError(
    signed ? "auth_refused" : "auth_required",
    `${asked} answered HTTP ${status}: ${signed ? "the credentials configured" : "no credentials are configured"} for ${details.host}`,
    { details: { ...details, status } },
  );
}

/** `archive_too_large` for a download from `url` past its limit. */
export function tooLarge(url: URL, problem: string): SkillshelfError {
  return new SkillshelfError("archive_too_large", `${url.href}: ${problem}`, {
    details: { url: url.href },
  });
}

// --- internal ---

type FailureCode =
  | "download_timeout"
  | "aborted"
  | "proxy_auth_required"
  | "proxy_refused"
  | "proxy_unreachable"
  | "server_not_tls"
  | "tls_untrusted"
  | "download_failed";

const TIMEOUTS = new Set([
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "ETIMEDOUT",
]);

/** Failures to open a connection: with a proxy, every connection this process opens is to it. */
const CONNECTING = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

const UNTRUSTED = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);
