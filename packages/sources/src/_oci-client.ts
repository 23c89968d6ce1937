import { SkillshelfError, sha256 } from "@skillshelf/core";
import { fetchFailed, REDIRECTS, readWithin, redirectTarget } from "./_download.js";
import { type HttpResponse, httpRequest } from "./_http.js";
import type { OciCredentials } from "./oci-credentials.js";

/** A repository of an OCI registry, and what of it is named: a tag, a digest, or both. */
export interface OciReference {
  /** `https:`, or `http:` for a registry on this machine. */
  readonly protocol: "https:" | "http:";
  /** `host[:port]`. */
  readonly host: string;
  readonly repository: string;
  readonly tag?: string | undefined;
  /** `sha256:<hex>`. */
  readonly digest?: string | undefined;
}

/** How a session reaches its registry. */
export interface OciSessionOptions {
  readonly credentials?: OciCredentials | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Also ask to push (publishing), not only to pull. */
  readonly push?: boolean | undefined;
}

/** One repository's requests, signed in once (HTTP Basic, or a registry's bearer token). */
export interface OciSession {
  /** GET `/v2/<repository>/<path>` (or an absolute path: `/v2/_catalog`), its body within `maxBytes` (a 404 is `oci_not_found`). */
  get(path: string, maxBytes: number, accept?: string): Promise<{ bytes: Buffer; type: string }>;
  /** True when `/v2/<repository>/<path>` exists (HEAD). */
  has(path: string): Promise<boolean>;
  /** Send `body` to `/v2/<repository>/<path>` (or an upload URL the registry gave); the answer's body is dropped. */
  send(
    method: "POST" | "PUT",
    pathOrUrl: string,
    body?: Buffer,
    type?: string,
  ): Promise<HttpResponse>;
}

/**
 * A session with `reference`'s repository, speaking the OCI distribution API directly (no
 * maintained Node client exists: docs/decisions.md). A 401 is answered once with the user's
 * credentials for the host — HTTP Basic, or the bearer token the registry's realm gives for them
 * — and never carried to another host on a redirect.
 */
export function ociSession(reference: OciReference, options: OciSessionOptions = {}): OciSession {
  const base = `${reference.protocol}//${reference.host}/v2/${reference.repository}/`;
  let authorization: string | undefined;
  const call = async (
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: Buffer,
  ) => {
    let response = await follow(method, url, headers, body, authorization, options.signal);
    if (response.status === 401) {
      response.discard();
      authorization = await signIn(reference, response.header("www-authenticate"), options);
      response = await follow(method, url, headers, body, authorization, options.signal);
    }
    if (response.status === 401 || response.status === 403) {
      response.discard();
      throw authFailure(reference, url, response.status, authorization !== undefined);
    }
    return response;
  };
  return {
    get: async (path, maxBytes, accept) => {
      const url = new URL(path, base).href;
      const response = await call("GET", url, accept === undefined ? {} : { accept });
      if (!response.ok) throw await httpFailure(response, url);
      return {
        bytes: await readWithin(response.body, maxBytes, new URL(url)),
        type: response.header("content-type") ?? "",
      };
    },
    has: async (path) => {
      const response = await call("HEAD", new URL(path, base).href, {});
      response.discard();
      return response.ok;
    },
    send: async (method, pathOrUrl, body, type) => {
      const url = new URL(pathOrUrl, base).href;
      const response = await call(
        method,
        url,
        type === undefined ? {} : { "content-type": type },
        body,
      );
      if (!response.ok) throw await httpFailure(response, url);
      // only the status and headers are wanted; an unread body would hold its connection open
      response.discard();
      return response;
    },
  };
}

/** `sha256:<hex>` of `bytes`, the form registries write. */
export function blobDigest(bytes: Uint8Array): string {
  return `sha256:${sha256(bytes)}`;
}

// --- internal ---

async function follow(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  authorization: string | undefined,
  signal: AbortSignal | undefined,
): Promise<HttpResponse> {
  const origin = new URL(url).host;
  let current = url;
  for (let redirects = 0; ; redirects++) {
    // credentials go only to the registry's own host
    const signed = authorization !== undefined && new URL(current).host === origin;
    let response: HttpResponse;
    try {
      response = await httpRequest(current, {
        method,
        headers: { ...headers, ...(signed ? { authorization } : {}) },
        body,
        signal,
      });
    } catch (error) {
      throw fetchFailed(new URL(current), error);
    }
    const location = response.header("location");
    // an upload's redirect is not followed: its body is not sent twice
    if (
      !REDIRECTS.has(response.status) ||
      location === undefined ||
      method === "PUT" ||
      method === "POST"
    )
      return response;
    response.discard();
    current = redirectTarget(new URL(current), location, redirects).href;
  }
}

/**
 * The Authorization header a 401's challenge asks for: HTTP Basic with the user's credentials for
 * the registry's host, or a bearer token from the challenge's realm — asked with the credentials
 * configured for the realm's own host (the registry's, when it is the same host), anonymously when
 * none are: credentials go only to the host they were configured for.
 */
async function signIn(
  reference: OciReference,
  challenge: string | undefined,
  options: OciSessionOptions,
): Promise<string | undefined> {
  const fields = Object.fromEntries(
    [...(challenge ?? "").slice(7).matchAll(/(\w+)="([^"]*)"/g)].map(([, key = "", value = ""]) => [
      key.toLowerCase(),
      value,
    ]),
  );
  const bearer =
    /^bearer\s/i.test(challenge ?? "") && fields.realm !== undefined && URL.canParse(fields.realm);
  if (!bearer) return basicFor(reference.host, options);
  const realm = new URL(fields.realm as string);
  if (fields.service !== undefined) realm.searchParams.set("service", fields.service);
  realm.searchParams.set(
    "scope",
    `repository:${reference.repository}:${options.push === true ? "pull,push" : "pull"}`,
  );
  const basic = await basicFor(realm.host, options);
  const response = await httpRequest(realm.href, {
    headers: basic === undefined ? {} : { authorization: basic },
    signal: options.signal,
  });
  if (!response.ok) {
    response.discard();
    throw authFailure(reference, realm.href, response.status, basic !== undefined);
  }
  const body = JSON.parse(
    (await readWithin(response.body, 1024 * 1024, realm)).toString("utf8"),
  ) as { token?: unknown; access_token?: unknown };
  const token = typeof body.token === "string" ? body.token : body.access_token;
  if (typeof token !== "string") throw authFailure(reference, realm.href, 401, basic !== undefined);
  return `Bearer ${token}`;
}

/** `Basic <user:password>` for `host`, from the user's credentials for exactly that host. */
async function basicFor(host: string, options: OciSessionOptions): Promise<string | undefined> {
  const credentials = await options.credentials?.(host);
  return credentials === undefined
    ? undefined
    : `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;
}

function authFailure(
  reference: OciReference,
  url: string,
  status: number,
  signed: boolean,
): SkillshelfError {
  return new SkillshelfError(
    signed ? "auth_refused" : "auth_required",
    `the registry ${reference.host} answered HTTP ${status} for ${reference.repository}: ${signed ? "the credentials configured" : "no credentials are configured"} for it`,
    { details: { url, status, host: reference.host } },
  );
}

async function httpFailure(response: HttpResponse, url: string): Promise<SkillshelfError> {
  response.discard();
  return new SkillshelfError(
    response.status === 404 ? "oci_not_found" : "download_failed",
    `${url} answered HTTP ${response.status}`,
    { details: { url, status: response.status } },
  );
}
