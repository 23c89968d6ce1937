// SSH signatures of OCI artifacts as OCI 1.1 referrers: a manifest of its own artifact type whose
// `subject` is the signed manifest, its one layer the armored signature of that manifest's digest
// (`sha256:<hex>`, as text). Found through the referrers API, or, on a registry without it,
// through the index the referrers tag schema keeps at `sha256-<hex>`. Cosign's own tag
// (`sha256-<hex>.sig`) is left to cosign: what is there is another tool's signature.
import { SkillshelfError } from "@skillshelf/core";
import { blobDigest, type OciSession } from "./_oci-client.js";
import {
  MEDIA,
  type OciDescriptor,
  type OciManifest,
  ociArtifact,
  readManifest,
  verifiedBlob,
} from "./_oci-shapes.js";
import { MAX_SIGNATURE_BYTES, verifiedSigner } from "./ssh-signature.js";

/** Who signed a manifest, as its registry shows it. */
export interface OciSignature {
  /** The SSH key that signed it (`ssh:SHA256:…`), when a signature of ours verified. */
  readonly signer?: string | undefined;
  /** Another tool's signature at cosign's tag (`cosign`): reported, never trusted by us. */
  readonly otherTool?: string | undefined;
}

/**
 * The blobs and the manifest that carry `signature` (armored SSHSIG) as a referrer of `subject`,
 * ready to push by the manifest's digest.
 */
export function signatureArtifact(
  signature: string,
  subject: OciDescriptor,
): { blobs: Buffer[]; manifest: Buffer } {
  return ociArtifact({
    artifactType: MEDIA.sshSignature,
    config: [MEDIA.empty, Buffer.from("{}")],
    layers: [[MEDIA.sshSignature, Buffer.from(signature)]],
    subject,
  });
}

/** The tag the referrers tag schema keeps `digest`'s referrers under: `sha256-<hex>`. */
function referrersTag(digest: string): string {
  return digest.replace(":", "-");
}

/**
 * Add the signature `referrer` (a manifest pushed already) to the referrers tag schema's index of
 * `subject`, for a registry without the referrers API: what the tag held (other referrers of the
 * same manifest) is kept, `referrer` listed once.
 */
export async function indexReferrer(
  session: OciSession,
  subject: string,
  referrer: Buffer,
  where: string,
): Promise<void> {
  const tag = referrersTag(subject);
  let existing: OciManifest | undefined;
  try {
    existing = (await orUndefined(readManifest(session, tag, where)))?.manifest;
  } catch (error) {
    // what is there is not an index: it is replaced
    if (!(error instanceof SkillshelfError && error.code === "oci_manifest_unsupported"))
      throw error;
  }
  const entry = { ...manifestDescriptor(referrer), artifactType: MEDIA.sshSignature };
  const others = (existing?.manifests ?? []).filter((one) => one.digest !== entry.digest);
  const index = { schemaVersion: 2, mediaType: MEDIA.index, manifests: [...others, entry] };
  await session.send("PUT", `manifests/${tag}`, Buffer.from(JSON.stringify(index)), MEDIA.index);
}

/**
 * Who signed the manifest `digest` of the session's repository: the signing key's fingerprint
 * (`ssh:SHA256:…`) of the first SSH signature among its referrers that verifies; or, when none is
 * pushed, whether another tool signed it at cosign's tag (an earlier Skillshelf's SSH signature
 * there is still read). A signature of ours that does not verify is `signature_invalid`.
 */
export async function ociSignature(
  session: OciSession,
  digest: string,
  where: string,
  tempDir: string | undefined,
): Promise<OciSignature> {
  const verify = async (manifest: OciManifest) => {
    const layer = manifest.layers?.find((one) => one.mediaType === MEDIA.sshSignature);
    if (layer === undefined) return undefined;
    const signature = await verifiedBlob(session, layer, MAX_SIGNATURE_BYTES);
    return verifiedSigner(
      Buffer.from(digest),
      signature,
      { name: `${where}@${digest}`, details: { url: where, digest } },
      { tempDir },
    );
  };
  for (const referrer of await signatureReferrers(session, digest, where)) {
    const { manifest } = await readManifest(session, referrer.digest, where);
    if ((manifest as { subject?: OciDescriptor }).subject?.digest !== digest) continue;
    const signer = await verify(manifest);
    if (signer !== undefined) return { signer };
  }
  const tagged = await orUndefined(readManifest(session, `${referrersTag(digest)}.sig`, where));
  if (tagged === undefined) return {};
  const signer = await verify(tagged.manifest);
  return signer !== undefined ? { signer } : { otherTool: "cosign" };
}

/** The descriptor of the manifest `bytes`, for a referrer's `subject` or an index's entry. */
export function manifestDescriptor(bytes: Buffer): OciDescriptor {
  return { mediaType: MEDIA.manifest, digest: blobDigest(bytes), size: bytes.length };
}

// --- internal ---

/** The SSH signatures among `digest`'s referrers: by the referrers API, else the tag schema's index. */
async function signatureReferrers(
  session: OciSession,
  digest: string,
  where: string,
): Promise<readonly OciDescriptor[]> {
  const listed =
    (await orUndefined(
      session
        .get(
          `referrers/${digest}?artifactType=${encodeURIComponent(MEDIA.sshSignature)}`,
          MAX_INDEX_BYTES,
          MEDIA.index,
        )
        .then(({ bytes }) => parsedIndex(bytes)),
    )) ?? (await orUndefined(readManifest(session, referrersTag(digest), where)))?.manifest;
  return (listed?.manifests ?? []).filter((one) => one.artifactType === MEDIA.sshSignature);
}

/** An index as JSON, or `undefined` (a registry that answers the path with something else). */
function parsedIndex(bytes: Buffer): OciManifest | undefined {
  try {
    const index: unknown = JSON.parse(bytes.toString("utf8"));
    return typeof index === "object" && index !== null ? (index as OciManifest) : undefined;
  } catch {
    return undefined;
  }
}

/** The referrers of one manifest are a few descriptors each. */
const MAX_INDEX_BYTES = 4 * 1024 * 1024;

/** What `read` gives, or `undefined` when the registry has nothing there (`oci_not_found`). */
async function orUndefined<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof SkillshelfError && error.code === "oci_not_found") return undefined;
    throw error;
  }
}
