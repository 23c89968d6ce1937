import { Enums, Models, Serialize, Spec } from "@cyclonedx/cyclonedx-library";
import { copyKey, type Environment, type PackageScope, type PackageSource } from "@skillshelf/core";
import { describeSource, sourcePackageUrl, sourceRepository } from "@skillshelf/sources";
import { type PackageCopy, readPackageSnapshot } from "@skillshelf/store";
import { PackageURL } from "packageurl-js";

/** What `scopeSbom` writes the bill of materials for. */
export interface SbomRequest {
  readonly environment: Environment;
  /** The scopes whose installed packages are listed. */
  readonly scopes: readonly PackageScope[];
  /** The tool named in the metadata, with its version. */
  readonly tool?: { readonly name: string; readonly version: string } | undefined;
}

/**
 * A CycloneDX 1.6 JSON bill of materials of the packages installed in `scopes`: each one a
 * component with its id and version, a package URL for its source (npm, GitHub, OCI, or a
 * generic one), the SHA-256 tree digest the lock pins, its licence, its source, commit, signer
 * and audit verdict as properties, and its repository as an external reference. Made with the
 * CycloneDX project's own library; the output is the same for the same install.
 */
export function scopeSbom(request: SbomRequest): string {
  const snapshot = readPackageSnapshot(request.environment);
  const bom = new Models.Bom();
  bom.metadata.component = new Models.Component(
    Enums.ComponentType.Application,
    `skill library of ${request.environment.project}`,
    // a fixed reference: the same install gives the same document
    { bomRef: "library" },
  );
  if (request.tool !== undefined)
    bom.metadata.tools.components.add(
      new Models.Component(Enums.ComponentType.Application, request.tool.name, {
        version: request.tool.version,
      }),
    );
  const copies = snapshot.copies
    .filter((copy) => request.scopes.includes(copy.scope) && copy.record !== undefined)
    .sort((a, b) => (a.scope + a.id < b.scope + b.id ? -1 : 1));
  for (const copy of copies) bom.components.add(component(copy));
  const serializer = new Serialize.JsonSerializer(
    new Serialize.JSON.Normalize.Factory(Spec.Spec1dot6),
  );
  return `${serializer.serialize(bom, { sortLists: true, space: 2 })}\n`;
}

// --- internal ---

function component(copy: PackageCopy): Models.Component {
  const record = copy.record as NonNullable<PackageCopy["record"]>;
  const { source, commit } = record.origin;
  const version = record.version ?? copy.manifest?.version;
  const made = new Models.Component(Enums.ComponentType.Library, copy.id, {
    bomRef: copyKey(copy),
    ...(version === undefined ? {} : { version }),
    ...(copy.manifest?.description === undefined ? {} : { description: copy.manifest.description }),
    purl: packageUrl(copy.id, version, source, commit),
  });
  made.hashes.set(Enums.HashAlgorithm["SHA-256"], record.contentDigest);
  const license = copy.manifest?.license;
  if (license !== undefined) made.licenses.add(new Models.NamedLicense(license));
  const repository = sourceRepository(source);
  if (repository !== undefined)
    made.externalReferences.add(
      new Models.ExternalReference(repository, Enums.ExternalReferenceType.VCS, {
        ...(commit === undefined ? {} : { comment: `at ${commit}` }),
      }),
    );
  const properties: [string, string | undefined][] = [
    ["skillshelf:scope", copy.scope],
    ["skillshelf:kind", record.kind],
    ["skillshelf:source", describeSource(source)],
    ["skillshelf:commit", commit],
    ["skillshelf:digest", record.contentDigest],
    ["skillshelf:trust", record.trust],
    ["skillshelf:signer", record.signer],
    ["skillshelf:audit", record.audit === undefined ? undefined : verdict(record.audit)],
  ];
  for (const [name, value] of properties)
    if (value !== undefined) made.properties.add(new Models.Property(name, value));
  return made;
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
