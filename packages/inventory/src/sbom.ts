// A bill of materials of the installed packages, in CycloneDX or SPDX: the facts gathered once
// (`_sbom-facts.ts`), written by the format's own writer.
import type { Environment, PackageScope } from "@skillshelf/core";
import type { PackageSnapshot } from "@skillshelf/store";
import { cycloneDx } from "./_cyclonedx.js";
import { sbomFacts } from "./_sbom-facts.js";
import { spdx } from "./_spdx.js";

/** The formats `scopeSbom` writes: CycloneDX 1.6 JSON, SPDX 2.3 JSON. */
export const SBOM_FORMATS = ["cyclonedx", "spdx"] as const;
export type SbomFormat = (typeof SBOM_FORMATS)[number];

/** What `scopeSbom` writes the bill of materials for. */
export interface SbomRequest {
  readonly environment: Environment;
  /** The scopes whose installed packages are listed. */
  readonly scopes: readonly PackageScope[];
  /** The tool named in the metadata, with its version. */
  readonly tool?: { readonly name: string; readonly version: string } | undefined;
  /** `cyclonedx` unless named. */
  readonly format?: SbomFormat | undefined;
  /** A snapshot already read that holds the scopes' copies (`bundle create`'s); else one is read. */
  readonly snapshot?: PackageSnapshot | undefined;
}

/**
 * A bill of materials of the packages installed in `scopes`: each one with its id and version,
 * a package URL for its source (npm, GitHub, OCI, or a generic one), the SHA-256 tree digest the
 * lock pins, its licence, its source, commit, signer, audit verdict and any advisory revoking
 * it; and, for the whole document, the org channel in force (its name, source, the sha256 of its
 * file and when it was fetched) and the advisory feeds checked. CycloneDX 1.6 is made with the
 * CycloneDX project's own library; SPDX 2.3 is written here (docs/decisions.md). The output is
 * the same for the same install (SPDX's creation time is the newest install's, or
 * `SOURCE_DATE_EPOCH`).
 */
export function scopeSbom(request: SbomRequest): string {
  const facts = sbomFacts(request);
  return WRITERS[request.format ?? "cyclonedx"](facts);
}

const WRITERS: Readonly<Record<SbomFormat, (facts: ReturnType<typeof sbomFacts>) => string>> = {
  cyclonedx: cycloneDx,
  spdx,
};
