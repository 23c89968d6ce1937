import { isSkillshelfError, SkillshelfError, sha256 } from "@skillshelf/core";
import { authFailure } from "./http/_failure.js";
import { answerChallenge } from "./http/challenge.js";
import { createHttpClient, type HttpClient, type HttpResponse } from "./http/client.js";
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
  /** The HTTP client its requests go through. Default: one for this process's environment. */
  readonly http?: HttpClient | undefined;
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
 * credentials for the registry's host (`answerChallenge`: HTTP Basic, or the bearer token its
 * realm gives for them); what it signs in with goes to the registry's origin alone, never to
 * another host a redirect leads to. An upload's redirect is not followed (its body would be sent
 * twice).
 */
export function ociSession(reference: OciReference, options: OciSessionOptions = {}): OciSession {
  const http = options.http ?? createHttpClient(process.env);
  const registry = new URL(`${reference.protocol}//${reference.host}`);
  const base = `${registry.origin}/v2/${reference.repository}/`;
  let authorization: string | undefined;
  const signedIn = async (url: URL) =>
    authorization !== undefined && url.origin === registry.origin ? { authorization } : undefined;
  const send = async (
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: Buffer,
  ) => {
    try {
      return await http.request(new URL(url), {
        method,
        headers,
        body,
        signal: options.signal,
        credentials: signedIn,
      });
    } catch (error) {
      throw plainHttpHint(error, reference);
    }
  };
  const call = async (
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: Buffer,
  ) => {
    let response = await send(method, url, headers, body);
    if (response.status === 401) {
      response.discard();
      authorization = await answerChallenge({
        challenge: response.header("www-authenticate"),
        server: registry,
        credentials: await options.credentials?.(reference.host),
        scope: `repository:${reference.repository}:${options.push === true ? "pull,push" : "pull"}`,
        http,
        signal: options.signal,
      });
      response = await send(method, url, headers, body);
    }
    if (response.status === 401 || response.status === 403) {
      response.discard();
      throw authFailure(
        `the registry ${reference.host}, asked for ${reference.repository},`,
        { status: response.status, signed: authorization !== undefined },
        { url, host: reference.host },
      );
    }
    return response;
  };
  return {
    get: async (path, maxBytes, accept) => {
      const url = new URL(path, base).href;
      const response = await call("GET", url, accept === undefined ? {} : { accept });
      if (!response.ok) throw httpFailure(response, url);
      return { bytes: await response.bytes(maxBytes), type: response.header("content-type") ?? "" };
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
      if (!response.ok) throw httpFailure(response, url);
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

/** `server_not_tls` of an `oci://` registry on this machine suggests its `oci+http://` name. */
function plainHttpHint(error: unknown, reference: OciReference): unknown {
  if (
    !isSkillshelfError(error) ||
    error.code !== "server_not_tls" ||
    error.details?.suggestion === undefined
  )
    return error;
  return new SkillshelfError(error.code, error.message, {
    cause: error.cause,
    details: {
      ...error.details,
      suggestion: `oci+http://${reference.host}/${reference.repository}`,
    },
  });
}

function httpFailure(response: HttpResponse, url: string): SkillshelfError {
  response.discard();
  return new SkillshelfError(
    response.status === 404 ? "oci_not_found" : "download_failed",
    `${url} answered HTTP ${response.status}`,
    { details: { url, status: response.status } },
  );
}
