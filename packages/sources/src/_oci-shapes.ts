import { SkillshelfError } from "@skillshelf/core";
import { blobDigest, type OciSession } from "./_oci-client.js";

/** A content descriptor of a manifest: what a blob is, its digest and size. */
export interface OciDescriptor {
  readonly mediaType: string;
  readonly digest: string;
  readonly size: number;
  readonly annotations?: Readonly<Record<string, string>>;
}

/** The media types of manifests and indexes Skillshelf reads and writes. */
export const MEDIA = {
  manifest: "application/vnd.oci.image.manifest.v1+json",
  index: "application/vnd.oci.image.index.v1+json",
  dockerManifest: "application/vnd.docker.distribution.manifest.v2+json",
  dockerList: "application/vnd.docker.distribution.manifest.list.v2+json",
  imageConfig: "application/vnd.oci.image.config.v1+json",
  layer: "application/vnd.oci.image.layer.v1.tar+gzip",
  skillet: "application/vnd.stacklok.skillet.skill.v1",
  // a detached SSH signature of a manifest's digest (Skillshelf's, pushed as cosign pushes its own)
  sshSignature: "application/vnd.skillshelf.ssh-signature.v1",
  empty: "application/vnd.oci.empty.v1+json",
} as const;

/**
 * An image manifest of `config` and `layers` (each a media type and its bytes), with the blobs to
 * push before it: the same bytes for the same parts.
 */
export function ociArtifact(parts: {
  readonly artifactType: string;
  readonly config: readonly [mediaType: string, bytes: Buffer];
  readonly layers: readonly (readonly [mediaType: string, bytes: Buffer])[];
  readonly annotations?: Readonly<Record<string, string>> | undefined;
  /** The manifest this one refers to (OCI 1.1 `subject`): a signature's signed manifest. */
  readonly subject?: OciDescriptor | undefined;
}): { blobs: Buffer[]; manifest: Buffer } {
  const descriptor = ([mediaType, bytes]: readonly [string, Buffer]) => ({
    mediaType,
    digest: blobDigest(bytes),
    size: bytes.length,
  });
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: MEDIA.manifest,
      artifactType: parts.artifactType,
      config: descriptor(parts.config),
      layers: parts.layers.map(descriptor),
      ...(parts.subject === undefined ? {} : { subject: parts.subject }),
      ...(parts.annotations === undefined ? {} : { annotations: parts.annotations }),
    }),
  );
  return { blobs: [parts.config[1], ...parts.layers.map(([, bytes]) => bytes)], manifest };
}

/**
 * The skill artifacts in use (ecosystem-2026 §3.1), as data: how each is told apart, and which
 * of its layers holds the skill's files (a gzipped tar). Skillshelf writes the first.
 */
const SHAPES: readonly {
  readonly name: string;
  readonly matches: (manifest: OciManifest) => boolean;
  readonly layerTypes: readonly string[];
}[] = [
  {
    name: "ToolHive skillet",
    matches: (manifest) => manifest.artifactType === MEDIA.skillet,
    layerTypes: [MEDIA.layer],
  },
  {
    name: "ACR agent skill",
    matches: (manifest) => manifest.artifactType === "application/vnd.agent.skill.v1+json",
    layerTypes: ["application/vnd.agent.skill.content.v1.tar+gzip"],
  },
  {
    name: "CNCF skill proposal",
    matches: (manifest) =>
      manifest.config?.mediaType === "application/vnd.cncf.skill.config.v1+json",
    layerTypes: ["application/vnd.cncf.skill.bundle.v1.tar+gzip"],
  },
  {
    name: "image holding SKILL.md folders",
    matches: (manifest) =>
      manifest.config?.mediaType === MEDIA.imageConfig ||
      manifest.config?.mediaType === "application/vnd.docker.container.image.v1+json",
    layerTypes: [MEDIA.layer, "application/vnd.docker.image.rootfs.diff.tar.gzip"],
  },
];

/** A manifest or index as read: the fields the shapes and signatures look at. */
export interface OciManifest {
  readonly mediaType?: string;
  readonly artifactType?: string;
  readonly config?: OciDescriptor;
  readonly layers?: readonly OciDescriptor[];
  readonly manifests?: readonly (OciDescriptor & {
    readonly artifactType?: string;
    readonly platform?: { readonly os?: string; readonly architecture?: string };
  })[];
}

/** A manifest is a few kilobytes; an index of many platforms a few more. */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
const ACCEPT = [MEDIA.manifest, MEDIA.index, MEDIA.dockerManifest, MEDIA.dockerList].join(", ");

/**
 * The manifest `reference` (a tag or `sha256:` digest) names, its digest checked when it is one,
 * and the one layer holding the skill's files: read by the shape it has (an index goes to the
 * manifest of a skill artifact, else linux/amd64, else its first). `digest` is the manifest's
 * (the index's, for an index) — what the lock pins. An unknown shape, or an image of several
 * layers, is `oci_manifest_unsupported`.
 */
export async function skillLayer(
  session: OciSession,
  reference: string,
  where: string,
): Promise<{ readonly digest: string; readonly layer: OciDescriptor }> {
  const top = await readManifest(session, reference, where);
  let manifest = top.manifest;
  if (manifest.manifests !== undefined) {
    const entries = manifest.manifests;
    const chosen =
      entries.find(
        (entry) => entry.artifactType !== undefined && SHAPES.some((shape) => shape.matches(entry)),
      ) ??
      entries.find(
        (entry) => entry.platform?.os === "linux" && entry.platform.architecture === "amd64",
      ) ??
      entries[0];
    if (chosen === undefined) throw unsupported(where, "an index that lists no manifest");
    manifest = (await readManifest(session, chosen.digest, where)).manifest;
  }
  const shape = SHAPES.find((candidate) => candidate.matches(manifest));
  if (shape === undefined)
    throw unsupported(
      where,
      `an artifact of type ${manifest.artifactType ?? manifest.config?.mediaType ?? "none"}`,
    );
  const layers = (manifest.layers ?? []).filter((layer) =>
    shape.layerTypes.includes(layer.mediaType),
  );
  const [layer] = layers;
  if (layer === undefined || layers.length !== 1 || (manifest.layers ?? []).length !== 1)
    throw unsupported(
      where,
      `a ${shape.name} with ${(manifest.layers ?? []).length} layers; one gzipped tar of the skill is read`,
    );
  return { digest: top.digest, layer };
}

/** A blob of `session`'s repository, checked against its descriptor before it is used. */
export async function verifiedBlob(
  session: OciSession,
  descriptor: OciDescriptor,
  maxBytes: number,
): Promise<Buffer> {
  const { bytes } = await session.get(`blobs/${descriptor.digest}`, maxBytes);
  const observed = blobDigest(bytes);
  if (observed !== descriptor.digest)
    throw new SkillshelfError(
      "digest_mismatch",
      `the blob ${descriptor.digest} downloads as ${observed}`,
      {
        details: { expected: descriptor.digest, observed },
      },
    );
  return bytes;
}

// --- internal ---

export async function readManifest(
  session: OciSession,
  reference: string,
  where: string,
): Promise<{ readonly digest: string; readonly manifest: OciManifest }> {
  const { bytes } = await session.get(`manifests/${reference}`, MAX_MANIFEST_BYTES, ACCEPT);
  const digest = blobDigest(bytes);
  if (reference.startsWith("sha256:") && digest !== reference)
    throw new SkillshelfError(
      "digest_mismatch",
      `${where} manifest ${reference} downloads as ${digest}`,
      {
        details: { url: where, expected: reference, observed: digest },
      },
    );
  let manifest: unknown;
  try {
    manifest = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw unsupported(where, "a manifest that is not JSON");
  }
  if (typeof manifest !== "object" || manifest === null)
    throw unsupported(where, "a manifest that is not an object");
  return { digest, manifest: manifest as OciManifest };
}

function unsupported(where: string, what: string): SkillshelfError {
  return new SkillshelfError("oci_manifest_unsupported", `${where} is ${what}`, {
    details: { url: where },
  });
}
