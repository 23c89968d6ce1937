import { gunzipSync } from "node:zlib";
import { SkillshelfError } from "@skillshelf/core";
import {
  blobDigest,
  createHttpClient,
  indexReferrer,
  MEDIA,
  manifestDescriptor,
  ociArtifact,
  ociCredentials,
  ociReference,
  ociSession,
  parseSourceAs,
  signatureArtifact,
  sshSign,
} from "@skillshelf/sources";
import { packTree } from "../_pack.js";
import type { PublishedSkill } from "../_publishable.js";
import type { Destination, PublishedArtifact } from "./_destination.js";

/**
 * An OCI registry: each skill pushed to `<repository>/<skill name>:<tag>` (the tag `latest` when
 * the destination names none) as a ToolHive skillet artifact — an image manifest whose
 * `artifactType` says skill, an image config (so Kubernetes image volumes mount it) and one
 * reproducible gzipped tar of the skill's files — annotated with its name, description and
 * version. Blobs the registry has are not sent again.
 */
export const OCI_DESTINATION: Destination<"oci"> = {
  syntax: "an OCI repository to push skills below (oci://host/repository[:tag])",
  parse: (text, baseDir) => {
    if (!/^oci(\+http)?:\/\//i.test(text)) return undefined;
    const source = parseSourceAs("oci", text, baseDir);
    if (source === undefined || source.digest !== undefined || source.path !== undefined)
      throw new SkillshelfError(
        "publish_destination_invalid",
        `${text} is not an OCI repository to push to (oci://host/repository[:tag], no digest or folder)`,
        { details: { destination: text } },
      );
    return { kind: "oci", url: source.url, tag: source.ref ?? "latest" };
  },
  describe: (destination) => `${destination.url}:${destination.tag}`,
  write: async (skills, destination, { dryRun, environment, signingKey }) => {
    const artifacts: PublishedArtifact[] = [];
    // the docker config is read once for every skill pushed, all through one HTTP client
    const credentials = ociCredentials(environment);
    const http = createHttpClient(environment.env);
    for (const skill of skills) {
      const { blobs, manifest } = await skillArtifact(skill);
      const url = `${destination.url}/${skill.name}`;
      const reference = ociReference({ url });
      const digest = blobDigest(manifest);
      // a detached signature of the manifest's digest, pushed as a referrer of the manifest
      // (OCI 1.1), so cosign's tag and the tools that read it are left alone
      const signature =
        signingKey === undefined
          ? undefined
          : signatureArtifact(
              await sshSign(Buffer.from(digest), signingKey, environment.env),
              manifestDescriptor(manifest),
            );
      if (!dryRun) {
        const session = ociSession(reference, { credentials, push: true, http });
        await pushArtifact(session, reference, blobs, manifest, destination.tag);
        if (signature !== undefined) await pushReferrer(session, reference, signature, digest);
      }
      artifacts.push({
        skill: skill.name,
        location: `${url}:${destination.tag}@${digest}`,
        digest,
        bytes: manifest.length,
      });
      if (signature !== undefined)
        artifacts.push({
          skill: skill.name,
          location: `${url}@${blobDigest(signature.manifest)}`,
          digest: blobDigest(signature.manifest),
          bytes: signature.manifest.length,
        });
    }
    return artifacts;
  },
};

// --- internal ---

/**
 * Push `referrer` (a manifest whose `subject` is `subject`) by its digest. A registry with the
 * referrers API says so in `OCI-Subject`; for one without, the referrers tag schema's index is
 * written with it added.
 */
async function pushReferrer(
  session: ReturnType<typeof ociSession>,
  reference: ReturnType<typeof ociReference>,
  referrer: { blobs: Buffer[]; manifest: Buffer },
  subject: string,
): Promise<void> {
  const digest = blobDigest(referrer.manifest);
  const pushed = await pushArtifact(session, reference, referrer.blobs, referrer.manifest, digest);
  if (pushed.header("oci-subject") === undefined)
    await indexReferrer(
      session,
      subject,
      referrer.manifest,
      `${reference.host}/${reference.repository}`,
    );
}

/** Push `blobs` the registry lacks, then `manifest` under `tag` (or its digest): the registry's answer. */
async function pushArtifact(
  session: ReturnType<typeof ociSession>,
  reference: ReturnType<typeof ociReference>,
  blobs: readonly Buffer[],
  manifest: Buffer,
  tag: string,
): Promise<{ header(name: string): string | undefined }> {
  for (const blob of blobs)
    if (!(await session.has(`blobs/${blobDigest(blob)}`))) {
      const started = await session.send("POST", "blobs/uploads/");
      const location = started.header("location");
      if (location === undefined)
        throw new SkillshelfError(
          "download_failed",
          `${reference.host}/${reference.repository} gave no upload location`,
          { details: { url: `${reference.host}/${reference.repository}` } },
        );
      const upload = new URL(location, `${reference.protocol}//${reference.host}`);
      upload.searchParams.set("digest", blobDigest(blob));
      await session.send("PUT", upload.href, blob, "application/octet-stream");
    }
  return session.send("PUT", `manifests/${tag}`, manifest, MEDIA.manifest);
}

/** The skill's layer and config, and the manifest naming them: the same bytes for the same tree. */
async function skillArtifact(
  skill: PublishedSkill,
): Promise<{ blobs: Buffer[]; manifest: Buffer }> {
  const layer = await packTree(skill.staged.dir);
  const config = Buffer.from(
    JSON.stringify({
      architecture: "amd64",
      os: "linux",
      config: {},
      rootfs: { type: "layers", diff_ids: [blobDigest(gunzipSync(layer))] },
    }),
  );
  return ociArtifact({
    artifactType: MEDIA.skillet,
    config: [MEDIA.imageConfig, config],
    layers: [[MEDIA.layer, layer]],
    annotations: {
      "org.opencontainers.image.title": skill.name,
      "org.stacklok.skillet.skill.name": skill.name,
      "org.stacklok.skillet.skill.description": skill.description,
      "org.stacklok.skillet.skill.version": skill.version,
    },
  });
}
