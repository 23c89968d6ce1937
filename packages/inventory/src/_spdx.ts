import { createHash } from "node:crypto";
import parseLicense from "spdx-expression-parse";
import { type ComponentFacts, documentProperties, type SbomFacts } from "./_sbom-facts.js";

/**
 * The facts as an SPDX 2.3 JSON document: the library a package that DESCRIBES names and that
 * CONTAINS each installed package; each with its tree digest as a SHA256 checksum, its package URL,
 * its declared licence when it is an SPDX expression, and its `skillshelf:*` facts as the
 * package's comment; the org in force and the feeds checked as the document's annotations.
 */
export function spdx(facts: SbomFacts): string {
  const created = createdAt(facts);
  const creator = `Tool: ${facts.tool === undefined ? "skillshelf" : `${facts.tool.name}-${facts.tool.version}`}`;
  const packages = facts.components.map((component, index) => packageOf(component, index));
  const document = {
    spdxVersion: "SPDX-2.3",
    dataLicense: "CC0-1.0",
    SPDXID: "SPDXRef-DOCUMENT",
    name: facts.library,
    documentNamespace: `https://spdx.org/spdxdocs/skillshelf-${namespaceHash(facts)}`,
    creationInfo: { created, creators: [creator] },
    packages: [
      {
        name: facts.library,
        SPDXID: LIBRARY,
        downloadLocation: "NOASSERTION",
        filesAnalyzed: false,
        primaryPackagePurpose: "APPLICATION",
      },
      ...packages,
    ],
    relationships: [
      {
        spdxElementId: "SPDXRef-DOCUMENT",
        relationshipType: "DESCRIBES",
        relatedSpdxElement: LIBRARY,
      },
      ...packages.map((one) => ({
        spdxElementId: LIBRARY,
        relationshipType: "CONTAINS",
        relatedSpdxElement: one.SPDXID,
      })),
    ],
    ...annotations(facts, creator, created),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

// --- internal ---

const LIBRARY = "SPDXRef-Library";

function packageOf(facts: ComponentFacts, index: number) {
  const declared = spdxLicense(facts.license);
  return {
    name: facts.id,
    // unique whatever the id holds: its place in the document, then the id in SPDX's characters
    SPDXID: `SPDXRef-Package-${index + 1}-${facts.ref.replace(/[^A-Za-z0-9.-]/g, "-")}`,
    ...(facts.version === undefined ? {} : { versionInfo: facts.version }),
    downloadLocation: downloadLocation(facts),
    filesAnalyzed: false,
    checksums: [{ algorithm: "SHA256", checksumValue: facts.digest }],
    licenseConcluded: "NOASSERTION",
    licenseDeclared: declared ?? "NOASSERTION",
    ...(facts.license !== undefined && declared === undefined
      ? { licenseComments: `declared as: ${facts.license}` }
      : {}),
    copyrightText: "NOASSERTION",
    ...(facts.description === undefined ? {} : { description: facts.description }),
    externalRefs: [
      { referenceCategory: "PACKAGE-MANAGER", referenceType: "purl", referenceLocator: facts.purl },
    ],
    primaryPackagePurpose: "LIBRARY",
    comment: facts.properties.map(([name, value]) => `${name}=${value}`).join("\n"),
  };
}

/** Where the package can be fetched, in SPDX's forms: a VCS (`git+…@commit`), a URL, or NOASSERTION. */
function downloadLocation(facts: ComponentFacts): string {
  const { repository, commit, source } = facts;
  if (repository !== undefined && /^https?:\/\//.test(repository))
    return `git+${repository}${commit === undefined ? "" : `@${commit}`}`;
  return /^https?:\/\/\S+$/.test(source) ? source : "NOASSERTION";
}

/** `license` when it is an SPDX licence expression, else `undefined`. */
function spdxLicense(license: string | undefined): string | undefined {
  if (license === undefined) return undefined;
  try {
    parseLicense(license);
    return license;
  } catch {
    return undefined;
  }
}

/** The org in force and each advisory feed checked, one annotation each, as `name=value`. */
function annotations(facts: SbomFacts, annotator: string, annotationDate: string) {
  const properties = documentProperties(facts);
  if (properties.length === 0) return {};
  return {
    annotations: properties.map(([name, value]) => ({
      annotationDate,
      annotationType: "OTHER",
      annotator,
      comment: `${name}=${value}`,
    })),
  };
}

/** `SOURCE_DATE_EPOCH`, else the newest install's time, else now: to the second, in UTC. */
function createdAt(facts: SbomFacts): string {
  const newest = facts.components
    .map((one) => one.installedAt)
    .sort()
    .at(-1);
  const at = facts.sourceDate ?? newest ?? new Date().toISOString();
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The same facts, the same namespace; other facts, another. */
function namespaceHash(facts: SbomFacts): string {
  return createHash("sha256").update(JSON.stringify(facts)).digest("hex").slice(0, 32);
}
