import { SkillshelfError } from "@skillshelf/core";
import { archiveTooLarge } from "./_archive.js";

/** Most redirects followed for one download (docs/decisions.md, "Downloads"). */
const MAX_REDIRECTS = 5;

/**
 * Download `url` into memory, refusing more than `maxBytes` (by header, then while reading).
 * Redirects are followed by hand, at most `MAX_REDIRECTS`, only to `http:` or `https:`, and never
 * from `https:` down to `http:` (`download_redirect_refused`). A failure or a timeout — while
 * connecting or while the body arrives — is `download_failed` or `download_timeout`, naming the URL.
 */
export async function download(
  url: string,
  maxBytes: number,
  signal: AbortSignal,
  headers: Readonly<Record<string, string>> = {},
): Promise<Uint8Array> {
  const origin = new URL(url);
  const credentials = Object.keys(headers).length > 0;
  let current = origin;
  for (let redirects = 0; ; redirects++) {
    const response = await request(current, signal, headers);
    const location = REDIRECTS.has(response.status) ? response.headers.get("location") : null;
    if (location === null) return readBody(response, current, maxBytes, credentials);
    await response.body?.cancel();
    current = redirectTarget(current, location, redirects);
    // credentials go only to the host they were configured for
    if (credentials && current.host !== origin.host)
      throw new SkillshelfError(
        "download_redirect_refused",
        `downloading ${origin.href} was redirected to another host (${current.host}) with credentials for ${origin.host}`,
        { details: { url: origin.href, location: current.href } },
      );
  }
}

/** The statuses that redirect. */
export const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * Where a redirect from `from` to `location` leads, or `download_redirect_refused`: past
 * `MAX_REDIRECTS`, to anything but `http:` or `https:`, or from `https:` down to `http:`.
 */
export function redirectTarget(from: URL, location: string, redirects: number): URL {
  const refuse = (problem: string): never => {
    throw new SkillshelfError(
      "download_redirect_refused",
      `downloading ${from.href} was redirected ${problem}`,
      {
        details: { url: from.href, location },
      },
    );
  };
  if (redirects >= MAX_REDIRECTS) refuse(`more than ${MAX_REDIRECTS} times`);
  if (!URL.canParse(location, from.href))
    refuse(`to ${JSON.stringify(location)}, which is not a URL`);
  const to = new URL(location, from);
  if (to.protocol !== "http:" && to.protocol !== "https:")
    refuse(`to ${to.protocol} (${to.href}); only http and https are followed`);
  if (from.protocol === "https:" && to.protocol === "http:")
    refuse(`from https to plain http (${to.href})`);
  return to;
}

/**
 * A response body read into memory, `archive_too_large` once it passes `maxBytes` (the stream is
 * let go), `download_failed` or `download_timeout` when it breaks off.
 */
export async function readWithin(
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
  url: URL,
): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of body) {
      total += chunk.byteLength;
      if (total > maxBytes)
        throw archiveTooLarge(`the download passed the ${maxBytes}-byte limit`, url.href);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof SkillshelfError) throw error;
    throw fetchFailed(url, error);
  }
  return Buffer.concat(chunks);
}

/** A request that failed or timed out, while connecting or while its body arrived. */
export function fetchFailed(url: URL, error: unknown): SkillshelfError {
  const name = error instanceof Error ? error.name : "";
  const cancelled = name === "TimeoutError" || name === "AbortError";
  const reason = cancelled
    ? "it took too long or was cancelled"
    : String((error as Error).cause ?? error);
  return new SkillshelfError(
    cancelled ? "download_timeout" : "download_failed",
    `could not download ${url.href} (${reason})`,
    {
      cause: error,
      details: { url: url.href },
    },
  );
}

// --- internal ---

async function request(
  url: URL,
  signal: AbortSignal,
  headers: Readonly<Record<string, string>>,
): Promise<Response> {
  try {
    return await fetch(url, { signal, redirect: "manual", headers });
  } catch (error) {
    throw fetchFailed(url, error);
  }
}

async function readBody(
  response: Response,
  url: URL,
  maxBytes: number,
  credentials: boolean,
): Promise<Uint8Array> {
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel();
    throw new SkillshelfError(
      credentials ? "auth_refused" : "auth_required",
      `downloading ${url.href} answered HTTP ${response.status}: ${credentials ? "the credentials configured" : "no credentials are configured"} for ${url.host}`,
      { details: { url: url.href, status: response.status, host: url.host } },
    );
  }
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new SkillshelfError(
      "download_failed",
      `downloading ${url.href} answered HTTP ${response.status}`,
      { details: { url: url.href, status: response.status } },
    );
  }
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await response.body.cancel();
    throw archiveTooLarge(
      `the download is ${declared} bytes, over the ${maxBytes}-byte limit`,
      url.href,
    );
  }
  return readWithin(response.body, maxBytes, url);
}
