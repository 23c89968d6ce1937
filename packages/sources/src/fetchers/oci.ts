import { createDiagnostic, SkillshelfError } from "@skillshelf/core";
import { archiveTooLarge, DEFAULT_ARCHIVE_LIMITS, unpackArchive } from "../_archive.js";
import { type OciReference, type OciSessionOptions, ociSession } from "../_oci-client.js";
import { skillLayer, verifiedBlob } from "../_oci-shapes.js";
import { ociSignature } from "../_oci-signature.js";
import { mirrored } from "../mirrors.js";
import { type Fetcher, fetchSignal, httpOf, type StageOptions } from "./_fetcher.js";
import { urlPlace } from "./_place.js";
import { subfolderOuter, subfolderWithin } from "./_subfolder.js";
import {
  insecureUrl,
  invalidSource,
  splitSubfolder,
  urlWithCredentials,
  withSubfolder,
} from "./_syntax.js";

// a repository path and a tag as the distribution spec writes them
const REPOSITORY =
  /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * An artifact of an OCI registry, `oci://host[:port]/repository[:tag][@sha256:…]//<folder>`
 * (`oci+http://` for a registry on this machine): its manifest read in any of the shapes in use,
 * the skill's layer checked against its digest and unpacked under every archive rule. Its
 * revision is the manifest's digest, what the lock pins.
 */
export const OCI_FETCHER: Fetcher<"oci"> = {
  syntax: "oci://host/repository[:tag][@sha256:<hex>]",
  parse: (text) => {
    const scheme = /^oci(\+http)?:\/\//i.exec(text);
    if (scheme === null) return undefined;
    const [location, subfolder] = splitSubfolder(text);
    const [named = "", digest] = location.slice(scheme[0].length).split("@");
    const slash = named.indexOf("/");
    const host = named.slice(0, slash);
    const rest = named.slice(slash + 1);
    const colon = rest.lastIndexOf(":");
    const repository = colon > rest.lastIndexOf("/") ? rest.slice(0, colon) : rest;
    const tag = colon > rest.lastIndexOf("/") ? rest.slice(colon + 1) : undefined;
    const protocol = scheme[1] === undefined ? "https:" : "http:";
    if (slash <= 0 || !URL.canParse(`${protocol}//${host}`) || !REPOSITORY.test(repository))
      return invalidSource(`${text} is not oci://host/repository[:tag][@sha256:<hex>]`);
    if (tag !== undefined && !TAG.test(tag))
      return invalidSource(`${text} has a tag that is not one (${tag})`);
    if (digest !== undefined && !DIGEST.test(digest))
      return invalidSource(`${text} has a digest that is not sha256:<64 lower-case hex>`);
    const site = new URL(`${protocol}//${host}`);
    const refused = insecureUrl(site) ?? urlWithCredentials(site);
    if (refused !== undefined) return refused;
    return withSubfolder(
      {
        type: "oci",
        url: `${scheme[0].toLowerCase()}${host}/${repository}`,
        ...(tag === undefined ? {} : { ref: tag }),
        ...(digest === undefined ? {} : { digest }),
      },
      subfolder,
    );
  },
  fetch: async (source, into, options) => {
    const limits = { ...DEFAULT_ARCHIVE_LIMITS, ...options.limits };
    const session = ociSession(
      mirroredReference(referenceOf(source), options),
      ociSessionOptions(options),
    );
    const where = describe(source);
    const { digest, layer } = await skillLayer(session, nameOf(source), where);
    if (layer.size > limits.maxDownloadBytes)
      throw archiveTooLarge(
        `the layer is ${layer.size} bytes, over the ${limits.maxDownloadBytes}-byte limit`,
        where,
      );
    const bytes = await verifiedBlob(session, layer, limits.maxDownloadBytes);
    // a signature pushed for the manifest is checked before anything is written
    const { signer, otherTool } = await ociSignature(session, digest, where, options.tempDir);
    await unpackArchive(bytes, into.dir, { ...limits, format: "tar.gz", subfolder: source.path });
    // another tool's signature is said, not trusted: only a key the user names signs for us
    const findings =
      otherTool === undefined
        ? []
        : [
            createDiagnostic(
              "info",
              "oci_signed_by_other_tool",
              `${where}@${digest} carries a ${otherTool} signature, which Skillshelf does not verify`,
              { details: { url: where, digest, tool: otherTool } },
            ),
          ];
    return {
      commit: digest.slice("sha256:".length),
      ...(signer === undefined ? {} : { signers: { ".": signer } }),
      ...(findings.length === 0 ? {} : { findings }),
    };
  },
  describe: (source) => describe(source),
  // a revision is the manifest's digest, its hex
  revisionText: (revision) => `manifest sha256:${revision.slice(0, 12)}`,
  origin: (source, commit) => ({
    kind: "oci",
    url: source.url,
    ...(source.ref === undefined ? {} : { ref: source.ref }),
    ...(commit === undefined ? {} : { commit }),
  }),
  within: subfolderWithin,
  outer: subfolderOuter,
  atRef: (source, ref) => ({ ...source, ref, digest: undefined }),
  pinnedAt: (source, commit) => ({ ...source, digest: `sha256:${commit}` }),
  place: (source) => urlPlace(source.url),
  upstreamUrl: (source) => {
    const { protocol, host, repository } = referenceOf(source);
    return `${protocol}//${host}/v2/${repository}/`;
  },
  pinned: (source) => source.digest !== undefined || (source.ref ?? "").startsWith("sha256:"),
  packageUrl: (source, commit) =>
    commit === undefined
      ? undefined
      : {
          type: "oci",
          version: `sha256:${commit}`,
          qualifiers: { repository_url: source.url.replace(/^oci(\+https?)?:\/\//, "") },
        },
  newest: async (source, options) => {
    if (source.digest !== undefined) return source.digest.slice("sha256:".length);
    const session = ociSession(
      mirroredReference(referenceOf(source), options),
      ociSessionOptions(options),
    );
    try {
      const { digest } = await skillLayer(session, nameOf(source), describe(source));
      return digest.slice("sha256:".length);
    } catch (error) {
      if (error instanceof SkillshelfError && error.code === "oci_not_found") return undefined;
      throw error;
    }
  },
};

/** The registry repository an `oci` source names. */
export function referenceOf(source: {
  readonly url: string;
  readonly ref?: string | undefined;
  readonly digest?: string | undefined;
}): OciReference {
  const plain = source.url.startsWith("oci+http://");
  const [host = "", ...path] = source.url.replace(/^oci(\+http)?:\/\//, "").split("/");
  return {
    protocol: plain ? "http:" : "https:",
    host,
    repository: path.join("/"),
    tag: source.ref,
    digest: source.digest,
  };
}

// --- internal ---

function describe(source: {
  readonly url: string;
  readonly ref?: string | undefined;
  readonly digest?: string | undefined;
  readonly path?: string | undefined;
}): string {
  return `${source.url}${source.ref === undefined ? "" : `:${source.ref}`}${source.digest === undefined ? "" : `@${source.digest}`}${source.path === undefined ? "" : `//${source.path}`}`;
}

/** What the manifest is asked for by: the digest when pinned, else the tag (`latest` when none). */
function nameOf(source: {
  readonly ref?: string | undefined;
  readonly digest?: string | undefined;
}): string {
  return source.digest ?? source.ref ?? "latest";
}

/**
 * How a session of a fetch reaches its registry: its credentials, its timeout, its HTTP client
 * (not rewritten by mirrors: a session is opened with its mirror's reference, `mirroredReference`,
 * so it signs in with the mirror's own credentials).
 */
export function ociSessionOptions(options: StageOptions): OciSessionOptions {
  return {
    credentials: options.oci,
    signal: fetchSignal(options),
    http: httpOf({ ...options, mirrors: undefined }),
  };
}

/**
 * `reference` at the registry a mirror rule sends its repository's URL (`<scheme>://<host>/v2/
 * <repository>/`) to, or itself when none does: the session then speaks to the mirror as its
 * registry, with the credentials kept for the mirror's host.
 */
export function mirroredReference(reference: OciReference, options: StageOptions): OciReference {
  const hit = mirrored(
    `${reference.protocol}//${reference.host}/v2/${reference.repository}/`,
    options.mirrors,
  );
  const parts = hit === undefined ? null : /^(https?:)\/\/([^/]+)\/v2\/(.+)\/$/.exec(hit.url);
  if (parts === null) return reference;
  return {
    ...reference,
    protocol: parts[1] as OciReference["protocol"],
    host: parts[2] as string,
    repository: parts[3] as string,
  };
}
