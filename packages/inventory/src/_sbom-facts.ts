import { copyKey, type Environment, type PackageScope, type PackageSource } from "@skillshelf/core";
import { advisoryFor, readAdvisories, readKeptOrg } from "@skillshelf/policy";
import { describeSource, sourcePackageUrl, sourceRepository } from "@skillshelf/sources";
import { type PackageCopy, type PackageSnapshot, readPackageSnapshot } from "@skillshelf/store";
import { PackageURL } from "packageurl-js";

/** What a bill of materials says of one installed package, whatever its format. */
export interface ComponentFacts {
  /** Unique in the document: the copy's scope and id. */
  readonly ref: string;
  readonly id: string;
  readonly version?: string | undefined;
  readonly description?: string | undefined;
  readonly purl: string;
  /** The SHA-256 tree digest the lock pins (hex). */
  readonly digest: string;
  readonly license?: string | undefined;
  readonly repository?: string | undefined;
  readonly commit?: string | undefined;
  readonly source: string;
  readonly installedAt: string;
  /** `skillshelf:*` properties, in order, none empty. */
  readonly properties: readonly (readonly [string, string])[];
}

/** What a bill of materials says: the library, the tool, the org in force, the feeds checked, the packages. */
export interface SbomFacts {
  readonly library: string;
  readonly tool?: { readonly name: string; readonly version: string } | undefined;
  readonly org?:
    | {
        readonly name: string;
        readonly source: string;
        readonly digest: string;
        readonly fetchedAt: string;
      }
    | undefined;
  readonly feeds: readonly {
    readonly name: string;
    readonly source: string;
    readonly fetchedAt: string;
    readonly advisories: number;
  }[];
  readonly components: readonly ComponentFacts[];
  /** `SOURCE_DATE_EPOCH` as RFC 3339, when set. */
  readonly sourceDate?: string | undefined;
}

/** The facts of the packages installed in `scopes`, sorted by scope then id. */
export function sbomFacts(request: {
  readonly environment: Environment;
  readonly scopes: readonly PackageScope[];
  readonly tool?: SbomFacts["tool"];
  readonly snapshot?: PackageSnapshot | undefined;
}): SbomFacts {
  const { environment, scopes, tool } = request;
  const snapshot = request.snapshot ?? readPackageSnapshot(environment);
  const { feeds } = readAdvisories(environment);
  const { kept } = readKeptOrg(environment);
  const epoch = Number(environment.env.SOURCE_DATE_EPOCH);
  const copies = snapshot.copies
    .filter((copy) => scopes.includes(copy.scope) && copy.record !== undefined)
    .sort((a, b) => (a.scope + a.id < b.scope + b.id ? -1 : 1));
  return {
    library: `skill library of ${environment.project}`,
    tool,
    ...(kept === undefined
      ? {}
      : {
          org: {
            name: kept.org.name,
            source: kept.source,
            digest: kept.digest,
            fetchedAt: kept.fetchedAt,
          },
        }),
    feeds: feeds.map((feed) => ({
      name: feed.name,
      source: feed.source,
      fetchedAt: feed.fetchedAt,
      advisories: feed.feed.advisories.length,
    })),
    components: copies.map((copy) => componentFacts(copy, feeds)),
    ...(Number.isInteger(epoch) && epoch >= 0
      ? { sourceDate: new Date(epoch * 1000).toISOString().replace(/\.\d{3}Z$/, "Z") }
      : {}),
  };
}

/** The org in force and the advisory feeds checked, as `skillshelf:*` name–value pairs. */
export function documentProperties(facts: SbomFacts): [string, string][] {
  const { org } = facts;
  return [
    ...(org === undefined
      ? []
      : ([
          ["skillshelf:org", org.name],
          ["skillshelf:org:source", org.source],
          ["skillshelf:org:digest", org.digest],
          ["skillshelf:org:fetched", org.fetchedAt],
        ] as [string, string][])),
    ...facts.feeds.map((feed): [string, string] => [
      `skillshelf:advisories:${feed.name}`,
      `${feed.source}, fetched ${feed.fetchedAt}, ${feed.advisories} advisories`,
    ]),
  ];
}

// --- internal ---

function componentFacts(
  copy: PackageCopy,
  feeds: Parameters<typeof advisoryFor>[0],
): ComponentFacts {
  const record = copy.record as NonNullable<PackageCopy["record"]>;
  const { source, commit } = record.origin;
  const version = record.version ?? copy.manifest?.version;
  const revoked = advisoryFor(feeds, { digest: record.contentDigest, source });
  const properties: [string, string | undefined][] = [
    ["skillshelf:scope", copy.scope],
    ["skillshelf:kind", record.kind],
    ["skillshelf:source", describeSource(source)],
    ["skillshelf:commit", commit],
    ["skillshelf:digest", record.contentDigest],
    ["skillshelf:trust", record.trust],
    ["skillshelf:signer", record.signer],
    ["skillshelf:audit", record.audit === undefined ? undefined : verdict(record.audit)],
    [
      "skillshelf:advisory",
      revoked === undefined ? undefined : `${revoked.advisory.id} (feed ${revoked.feed})`,
    ],
  ];
  return {
    ref: copyKey(copy),
    id: copy.id,
    version,
    description: copy.manifest?.description,
    purl: packageUrl(copy.id, version, source, commit),
    digest: record.contentDigest,
    license: copy.manifest?.license,
    repository: sourceRepository(source),
    commit,
    source: describeSource(source),
    installedAt: record.installedAt,
    properties: properties.flatMap(([name, value]) =>
      value === undefined ? [] : [[name, value] as const],
    ),
  };
}

function verdict(audit: NonNullable<NonNullable<PackageCopy["record"]>["audit"]>): string {
  const found = audit.highest === undefined ? "clean" : `highest ${audit.highest}`;
  const approved = audit.approved === undefined ? "" : `; approved ${audit.approved.join(", ")}`;
  return `rules ${audit.rules}: ${found}${approved}`;
}

/** The package URL of a copy: what its source's fetcher says (`pkg:npm`, `pkg:github`, `pkg:oci`), else `pkg:generic` with its source. */
function packageUrl(
  id: string,
  version: string | undefined,
  source: PackageSource,
  commit: string | undefined,
): string {
  const parts = sourcePackageUrl(source, commit);
  if (parts !== undefined)
    return new PackageURL(
      parts.type,
      parts.namespace,
      parts.name ?? id,
      parts.version ?? commit ?? version,
      parts.qualifiers === undefined ? undefined : { ...parts.qualifiers },
      parts.subpath,
    ).toString();
  return new PackageURL("generic", undefined, id, commit ?? version, {
    download_url: describeSource(source),
  }).toString();
}
