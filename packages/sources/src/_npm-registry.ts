/// <reference path="./_npm-modules.d.ts" />
import { SkillshelfError } from "@skillshelf/core";
import { insecureUrl } from "./fetchers/_syntax.js";
import { authFailure } from "./http/_failure.js";
import type { HttpClient, OriginCredentials } from "./http/client.js";

/** A version of a package as its registry describes it (the fields read here). */
export interface NpmVersion {
  readonly name: string;
  readonly version: string;
  readonly dist: {
    readonly tarball: string;
    readonly integrity?: string;
    readonly shasum?: string;
    readonly unpackedSize?: number;
    readonly size?: number;
  };
}

/** One npm spec's requests: the registry its scope names, and the user's settings for it. */
export interface NpmRequest {
  /** `<name>@<range, version or dist-tag>`, for messages and npm's scope rules. */
  readonly spec: string;
  readonly name: string;
  readonly settings: Readonly<Record<string, string>>;
  readonly http: HttpClient;
  readonly signal: AbortSignal;
}

/**
 * The version of `request.name` that `wanted` (a range, a version or a dist-tag) picks, as npm
 * picks it (`npm-pick-manifest`) from the package document its registry serves. Every request
 * carries the token npm's own rule gives its URL (`npm-registry-fetch`'s `getAuth`), asked again
 * for each redirect, so a token goes to the origin it was written for and nowhere else.
 */
export async function pickNpmVersion(request: NpmRequest, wanted: string): Promise<NpmVersion> {
  const registry = registryOf(request.spec, request.settings);
  const url = new URL(request.name.replace("/", "%2f"), registry.href.replace(/\/?$/, "/"));
  const response = await request.http.request(url, {
    headers: { accept: PACKUMENT_TYPES },
    signal: request.signal,
    credentials: await npmCredentials(request),
  });
  if (response.status === 404) {
    response.discard();
    throw new SkillshelfError(
      "npm_package_missing",
      `the registry ${registry.host} has no package ${request.spec}`,
      { details: { url: registry.href, spec: request.spec } },
    );
  }
  const body = await okBody(response, request, registry, MAX_PACKUMENT_BYTES);
  const { default: pickManifest } = await import("npm-pick-manifest");
  const details = { url: registry.href, spec: request.spec };
  let picked: NpmVersion;
  try {
    picked = pickManifest(JSON.parse(body.toString("utf8")), wanted) as NpmVersion;
  } catch (error) {
    throw (error as { code?: unknown }).code === "ETARGET"
      ? new SkillshelfError(
          "npm_version_missing",
          `no version of ${request.spec} is published on ${registry.host}`,
          { details },
        )
      : new SkillshelfError(
          "download_failed",
          `${registry.host} answered for ${request.spec} with no package document npm can read`,
          { details, cause: error },
        );
  }
  if (typeof picked.dist?.tarball !== "string" || !URL.canParse(picked.dist.tarball))
    throw new SkillshelfError(
      "download_failed",
      `${registry.host} lists ${request.spec}@${picked.version} without a tarball URL`,
      { details },
    );
  return picked;
}

/**
 * The tarball of `version`, within `maxBytes` (refused before it is asked for when the registry
 * declares a larger size, else by its length, else as it arrives: nothing is kept on disk), and
 * checked against `integrity` (the registry's, or the lock's on a restore).
 */
export async function npmTarball(
  request: NpmRequest,
  version: NpmVersion,
  limits: { readonly maxBytes: number; readonly maxUnpackedBytes: number },
  integrity: string,
): Promise<Buffer> {
  const url = new URL(version.dist.tarball);
  const refused = insecureUrl(url);
  if (refused !== undefined)
    throw new SkillshelfError(refused.code, refused.problem, { details: { url: url.href } });
  const declared = [
    [version.dist.size, limits.maxBytes, "bytes"],
    [version.dist.unpackedSize, limits.maxUnpackedBytes, "bytes unpacked"],
  ] as const;
  for (const [size, limit, what] of declared)
    if (typeof size === "number" && size > limit)
      throw new SkillshelfError(
        "archive_too_large",
        `${request.spec}: the registry says it is ${size} ${what}, over the ${limit}-byte limit`,
        { details: { url: url.href, spec: request.spec } },
      );
  const response = await request.http.request(url, {
    signal: request.signal,
    credentials: await npmCredentials(request),
  });
  const bytes = await okBody(
    response,
    request,
    registryOf(request.spec, request.settings),
    limits.maxBytes,
  );
  const ssri = await import("ssri");
  if (ssri.checkData(bytes, integrity) === false)
    throw new SkillshelfError(
      "digest_mismatch",
      `the tarball of ${request.spec} is not the integrity pinned (${integrity})`,
      {
        details: {
          url: url.href,
          spec: request.spec,
          expected: integrity,
          observed: ssri.fromData(bytes, { algorithms: ["sha512"] }).toString(),
        },
      },
    );
  return bytes;
}

/** The integrity of `version`'s tarball as its registry gives it: SRI, else its sha1. */
export function registryIntegrity(version: NpmVersion): string {
  const { integrity, shasum } = version.dist;
  if (integrity !== undefined) return integrity;
  return `sha1-${Buffer.from(shasum ?? "", "hex").toString("base64")}`;
}

/** The registry a spec is fetched from: its scope's, else the configured one, else npm's. */
export function registryOf(spec: string, settings: Readonly<Record<string, unknown>>): URL {
  const scope = /^(@[^/]+)\//.exec(spec)?.[1];
  const configured =
    (scope === undefined ? undefined : settings[`${scope}:registry`]) ?? settings.registry;
  const text =
    typeof configured === "string" && URL.canParse(configured)
      ? configured
      : "https://registry.npmjs.org/";
  return new URL(text);
}

// --- internal ---

/** The abbreviated package document npm asks for, else the whole one. */
const PACKUMENT_TYPES = "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*";

/** A package document lists every version; past this it is not one a skill package has. */
const MAX_PACKUMENT_BYTES = 32 * 1024 * 1024;

/** The `Authorization` npm would send to each URL, by npm's own rule for the user's settings. */
async function npmCredentials(request: NpmRequest): Promise<OriginCredentials> {
  const { default: getAuth } = await import("npm-registry-fetch/lib/auth.js");
  return async (url) => {
    const auth = getAuth(url.href, { ...request.settings, spec: request.spec });
    if (auth.token) return { authorization: `Bearer ${auth.token}` };
    if (auth.auth) return { authorization: `Basic ${auth.auth}` };
    return undefined;
  };
}

/** The body of a 2xx answer; a 401/403 names whether a token went with it, another status the registry. */
async function okBody(
  response: Awaited<ReturnType<HttpClient["request"]>>,
  request: NpmRequest,
  registry: URL,
  maxBytes: number,
): Promise<Buffer> {
  if (response.ok) return response.bytes(maxBytes);
  response.discard();
  const { status } = response;
  const details = { url: registry.href, spec: request.spec, host: registry.host };
  if (status === 401 || status === 403)
    throw authFailure(
      `the registry ${registry.host}, asked for ${request.spec},`,
      response,
      details,
    );
  throw new SkillshelfError(
    "download_failed",
    `could not fetch ${request.spec} from ${registry.host} (HTTP ${status})`,
    { details: { ...details, status } },
  );
}
