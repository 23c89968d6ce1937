import type { PackageSource } from "@skillshelf/core";
import maxSatisfying from "semver/ranges/max-satisfying.js";
import { type OciReference, ociSession } from "./_oci-client.js";
import { createStagingArea, readCollection, stageCollectionSkill } from "./collection.js";
import type { StageOptions } from "./fetchers/_fetcher.js";
import { describeSource, sourceWithin } from "./fetchers/index.js";
import {
  mirroredReference,
  referenceOf as ociReference,
  ociSessionOptions,
} from "./fetchers/oci.js";
import { fetchSource } from "./stage.js";

/** One row of a `library.json`: a skill a site or a registry offers, pinned as an install would pin it. */
export interface OfferedSkill {
  readonly kind: "skill";
  readonly name: string;
  readonly description: string;
  readonly version: string;
  readonly sha256: string;
  readonly sourceUrl: string;
}

/** The kinds of source that can be asked what skills they offer (`sources add`): sites and OCI repositories. */
export function offersSkills(source: PackageSource): boolean {
  return source.type === "well-known" || source.type === "oci";
}

/**
 * The skills a site's `.well-known` index or an OCI repository offers, each fetched and staged
 * exactly as `install` would stage it, so its row carries the digest an install pins (and the
 * rows are an ordinary `library.json` that `search` reads). An OCI source without a tag or digest
 * names a namespace: every repository of the registry's catalog below it is asked, at its
 * highest SemVer tag, else `latest`.
 */
export async function offeredSkills(
  source: PackageSource,
  options: StageOptions = {},
): Promise<OfferedSkill[]> {
  const artifacts =
    source.type === "oci" && source.ref === undefined && source.digest === undefined
      ? await ociArtifacts(source, options)
      : [source];
  const rows: OfferedSkill[] = [];
  for (const artifact of artifacts) {
    const fetched = await fetchSource(artifact, options);
    const area = createStagingArea(options.tempDir);
    try {
      for (const skill of readCollection(fetched.dir).skills) {
        const staged = stageCollectionSkill(fetched, skill, { area });
        rows.push({
          kind: "skill",
          name: skill.name,
          description: skill.description,
          version: skill.version,
          sha256: staged.digest,
          sourceUrl: describeSource(sourceWithin(artifact, skill.path)),
        });
      }
    } finally {
      area.release();
      fetched.release();
    }
  }
  return rows;
}

// --- internal ---

/** A registry's catalog is listed this many repositories at a time. */
const CATALOG_PAGE = 1000;

/** Each repository at or below `source`'s in the registry's catalog, at the tag it offers. */
async function ociArtifacts(
  source: Extract<PackageSource, { type: "oci" }>,
  options: StageOptions,
): Promise<PackageSource[]> {
  const reference = ociReference(source);
  const catalog = ociSession(mirroredReference(reference, options), ociSessionOptions(options));
  const { bytes } = await catalog.get(`/v2/_catalog?n=${CATALOG_PAGE}`, 4 * 1024 * 1024);
  const listed = (JSON.parse(bytes.toString("utf8")) as { repositories?: unknown }).repositories;
  const repositories = (Array.isArray(listed) ? listed : []).filter(
    (name): name is string =>
      typeof name === "string" &&
      (name === reference.repository || name.startsWith(`${reference.repository}/`)),
  );
  const artifacts: PackageSource[] = [];
  for (const repository of repositories) {
    const tag = await offeredTag({ ...reference, repository }, options);
    if (tag !== undefined)
      artifacts.push({
        ...source,
        url: source.url.replace(reference.repository, repository),
        ref: tag,
      });
  }
  return artifacts;
}

/** The tag a repository offers: its highest SemVer tag, else `latest`, else none. */
async function offeredTag(
  reference: OciReference,
  options: StageOptions,
): Promise<string | undefined> {
  const session = ociSession(mirroredReference(reference, options), ociSessionOptions(options));
  const { bytes } = await session.get("tags/list", 4 * 1024 * 1024);
  const tags = (JSON.parse(bytes.toString("utf8")) as { tags?: unknown }).tags;
  const names = (Array.isArray(tags) ? tags : []).filter(
    (tag): tag is string => typeof tag === "string",
  );
  // npm's semver: the highest release (no pre-release), tags such as v1.2.0 included
  return maxSatisfying(names, "*") ?? (names.includes("latest") ? "latest" : undefined);
}
