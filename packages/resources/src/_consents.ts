// What a person trusted beyond the library (`skillshelf trust`), applied to a pass's roots: a
// foreign package or another agent's folder counts as trusted while its content digests to what
// was trusted, and any change revokes it with a diagnostic saying so.
import { existsSync } from "node:fs";
import {
  createDiagnostic,
  type Diagnostic,
  digestTree,
  type Environment,
  isSkillshelfError,
  type PackageScope,
  type ResourceRoot,
} from "@skillshelf/core";
import {
  type Consent,
  consentFolder,
  copyOf,
  folderConsentKey,
  PACKAGE_SCOPES,
  type PackageSnapshot,
  packageConsentKey,
  readConsents,
  readPackageSnapshot,
} from "@skillshelf/store";

/** One consent of a scope's `trust.json`, and whether it still holds. */
export interface ConsentState extends Consent {
  readonly scope: PackageScope;
  readonly key: string;
  /** The `trust.json` it is kept in. */
  readonly file: string;
  /** Its content still digests to what was trusted. */
  readonly holds: boolean;
}

/** Every consent of both scopes, checked, and what no longer holds or cannot be read. */
export interface ConsentStatus {
  readonly consents: readonly ConsentState[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Read both scopes' consents and check each against what is there now: a package's against its
 * copy's recorded and observed digest, a folder's against the folder digested again (only what
 * was trusted is digested; without `snapshot`, only the trusted packages are read). A consent
 * that no longer holds is `trust_revoked`.
 */
export function consentStatus(environment: Environment, snapshot?: PackageSnapshot): ConsentStatus {
  const read = PACKAGE_SCOPES.map((scope) => ({ scope, read: readConsents(environment, scope) }));
  const trusted = read.flatMap(({ scope, read: one }) =>
    one.ok
      ? Object.entries(one.value.value.trusted).map(([key, consent]) => ({
          scope,
          key,
          consent,
          file: one.value.path,
        }))
      : [],
  );
  const packageIds = trusted
    .filter(({ key }) => key.startsWith("package:"))
    .map(({ key }) => key.slice("package:".length));
  // the installed copies trusted packages are checked against, read once when first needed
  let copies = snapshot;
  const copiesNow = () => {
    copies ??= readPackageSnapshot(environment, { ids: packageIds });
    return copies;
  };
  const consents: ConsentState[] = [];
  const diagnostics: Diagnostic[] = read.flatMap(({ read: one }) =>
    one.ok ? [] : one.diagnostics,
  );
  for (const { scope, key, consent, file } of trusted) {
    // an upstream's skill is held against what the upstream lists, by the gateway that relays it
    if (key.startsWith("upstream:")) {
      consents.push({ ...consent, scope, key, file, holds: true });
      continue;
    }
    const now = key.startsWith("package:")
      ? packageDigest(copiesNow(), scope, key.slice("package:".length))
      : folderDigest(consentFolder(environment, scope, key));
    const holds = now === consent.digest;
    consents.push({ ...consent, scope, key, file, holds });
    if (!holds) diagnostics.push(revoked(file, scope, key, consent, now));
  }
  return { consents, diagnostics };
}

/**
 * A pass's roots with the consents that hold applied: a foreign package's roots, or another
 * agent's folder, a person trusted count as trusted.
 */
export function consentedRoots(
  status: ConsentStatus,
  environment: Environment,
): (root: ResourceRoot) => ResourceRoot {
  const held = new Set(
    status.consents.filter((one) => one.holds).map((one) => `${one.scope}|${one.key}`),
  );
  if (held.size === 0) return (root: ResourceRoot): ResourceRoot => root;
  const lifted = (root: ResourceRoot, scope: PackageScope, key: string): ResourceRoot =>
    held.has(`${scope}|${key}`) ? { ...root, trust: "trusted" } : root;
  return (root: ResourceRoot): ResourceRoot => {
    if (root.trust === "foreign" && root.owner !== undefined)
      return lifted(root, root.owner.scope, packageConsentKey(root.owner.id));
    if (root.trust === "untrusted" && (root.scope === "user" || root.scope === "project"))
      return lifted(root, root.scope, folderConsentKey(environment, root.scope, root.path));
    return root;
  };
}

// --- internal ---

function packageDigest(
  snapshot: PackageSnapshot,
  scope: PackageScope,
  id: string,
): string | undefined {
  const copy = copyOf(snapshot, scope, id);
  // the record says what was installed, the observed digest what is there: both must match
  return copy?.record?.contentDigest === copy?.observedDigest ? copy?.observedDigest : undefined;
}

function folderDigest(folder: string): string | undefined {
  if (!existsSync(folder)) return undefined;
  try {
    return digestTree(folder).digest;
  } catch (error) {
    if (isSkillshelfError(error)) return undefined;
    throw error;
  }
}

function revoked(
  path: string,
  scope: PackageScope,
  key: string,
  consent: Consent,
  now: string | undefined,
): Diagnostic {
  const what = key.replace(/^package:/, "the package ").replace(/^folder:/, "the folder ");
  return createDiagnostic(
    "warning",
    "trust_revoked",
    `${what} was trusted in the ${scope} scope for other content than it holds now${now === undefined ? " (it is gone or cannot be read)" : ""}: it is not given to a model until it is trusted again`,
    {
      path,
      details: { scope, key, trusted: consent.digest, ...(now === undefined ? {} : { now }) },
    },
  );
}
