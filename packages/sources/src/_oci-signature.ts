// SSH signatures of OCI artifacts, kept where cosign keeps its own: a manifest tagged
// `sha256-<hex>.sig` in the same repository, its one layer the armored signature of the signed
// manifest's digest (`sha256:<hex>`, as text).
import { SkillshelfError } from "@skillshelf/core";
import type { OciSession } from "./_oci-client.js";
import { MEDIA, ociArtifact, readManifest, verifiedBlob } from "./_oci-shapes.js";
import { MAX_SIGNATURE_BYTES, verifiedSigner } from "./ssh-signature.js";

/** The tag a manifest's signature is pushed under: `sha256-<hex>.sig`. */
export function signatureTag(digest: string): string {
  return `${digest.replace(":", "-")}.sig`;
}

/** The blobs and the manifest that carry `signature` (armored SSHSIG), ready to push. */
export function signatureArtifact(signature: string): { blobs: Buffer[]; manifest: Buffer } {
  return ociArtifact({
    artifactType: MEDIA.sshSignature,
    config: [MEDIA.empty, Buffer.from("{}")],
    layers: [[MEDIA.sshSignature, Buffer.from(signature)]],
  });
}

/**
 * Who signed the manifest `digest` of the session's repository: the signing key's fingerprint
 * (`ssh:SHA256:…`), or `undefined` when no signature is pushed for it. A signature that does not
 * verify is `signature_invalid`.
 */
export async function ociSigner(
  session: OciSession,
  digest: string,
  where: string,
  tempDir: string | undefined,
): Promise<string | undefined> {
  let manifest: Awaited<ReturnType<typeof readManifest>>["manifest"];
  try {
    manifest = (await readManifest(session, signatureTag(digest), where)).manifest;
  } catch (error) {
    if (error instanceof SkillshelfError && error.code === "oci_not_found") return undefined;
    throw error;
  }
  const layer = manifest.layers?.find((one) => one.mediaType === MEDIA.sshSignature);
  if (layer === undefined) return undefined;
  const signature = await verifiedBlob(session, layer, MAX_SIGNATURE_BYTES);
  return verifiedSigner(
    Buffer.from(digest),
    signature,
    { name: `${where}@${digest}`, details: { url: where, digest } },
    { tempDir },
  );
}
