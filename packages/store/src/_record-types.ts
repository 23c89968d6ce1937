import type {
  AuditSeverity,
  LinkKind,
  PackageKind,
  PackageSource,
  ResourceFolder,
  ResourceKind,
} from "@skillshelf/core";

// The shapes of `state.json`, `lock.json` and `trust.json`, written out rather than inferred from
// their schemas, so the declarations a consumer reads name no validator (type aliases, not
// interfaces: records are read as plain `Record<string, unknown>` too). Each schema reads exactly
// its shape: `test/record-types.test.ts` holds the two equal, field for field.

/** The manifest format a package was written in: ours (`plugin.json`) or a Claude Code plugin. */
export type PackageFormat = "skillshelf" | "claude-code";

/** Whether a package's resources are trusted here, or foreign (imported from another agent). */
type PackageTrust = "trusted" | "foreign";

/**
 * The audit verdict on the tree a record digests: the rule table's version it was read with,
 * the rules that found something (`highest`: the worst severity among them) and the rules a
 * person or a policy approved. Bound to the record's digest: a new tree is audited anew.
 */
type AuditVerdict = {
  rules: string;
  highest?: AuditSeverity | undefined;
  found?: string[] | undefined;
  approved?: string[] | undefined;
};

/** How an installed copy reached this machine. */
export type PackageOrigin = {
  source: PackageSource;
  commit?: string | undefined;
  index?: string | undefined;
  /** The mirror it was fetched from instead of its source's upstream (the rule's `to`). */
  mirror?: string | undefined;
};

/** The record an update replaced (kept for `rollback`). */
export type PreviousRecord = {
  kind: PackageKind;
  format: PackageFormat;
  installedAt: string;
  origin: PackageOrigin;
  contentDigest: string;
  trust: PackageTrust;
  version?: string | undefined;
  audit?: AuditVerdict | undefined;
  signer?: string | undefined;
  /** The manifest's requirements, so the lock can be written from the state alone. */
  requires?: string[] | undefined;
  /** Each file's own fingerprint, so verify can name the files that changed. */
  files?: Record<string, string> | undefined;
};

/** The record `state.json` keeps for one installed copy. */
export type InstallRecord = PreviousRecord & {
  previous?: PreviousRecord | undefined;
};

/** One link as the lock pins it: the agent whose folder holds it, what it exposes and how. */
export type LockedLink = {
  agent: string;
  kind: LinkKind;
  /** Relative to the scope's library folder. */
  target: string;
  mode: "symlink" | "copy";
  package?: string | undefined;
  /**
   * A copy of a package's root skill folder without the package's `plugin.json`: what `adopt`
   * records of a skill folder it found in the agent's folder, as it was.
   */
  bare?: true | undefined;
};

/** One link into another agent's folder, as the state records it: with what it exposed. */
export type LinkRecord = LockedLink & {
  digest: string;
};

/** A scope's `packages/state.json`. */
export type ScopeState = {
  version: 1;
  disabled: string[];
  installed: Record<string, InstallRecord>;
  /** Keyed by the link's path relative to the scope's folder. */
  links?: Record<string, LinkRecord> | undefined;
};

/** One package as the lock pins it. */
export type LockedPackage = {
  kind: PackageKind;
  format: PackageFormat;
  source: PackageSource;
  digest: string;
  trust: PackageTrust;
  enabled: boolean;
  requires: string[];
  version?: string | undefined;
  commit?: string | undefined;
  index?: string | undefined;
  mirror?: string | undefined;
  audit?: AuditVerdict | undefined;
  signer?: string | undefined;
};

/** A scope's `lock.json`: for each package id, what the scope should hold. */
export type LockFile = {
  version: 1;
  packages: Record<string, LockedPackage>;
  links?: Record<string, LockedLink> | undefined;
};

/** One thing trusted, bound to the digest of its content when it was trusted. */
export type Consent = {
  digest: string;
  at: string;
  agent?: string | undefined;
  audit?: AuditVerdict | undefined;
};

/** A scope's `trust.json`: what a person approved for the model beyond its own library. */
export type ConsentFile = {
  version: 1;
  trusted: Record<string, Consent>;
};

/** What a declared component is. Resource components (skill, prompt, agent, fleet) are loaded. */
export type ComponentKind = ResourceKind | "script" | "resource" | "tool";

/** `extensions.skillshelf` of our `plugin.json`, as its schema reads it. */
export type ManifestExtension = {
  manifestVersion: 1;
  kind?: PackageKind | undefined;
  requires?: string[] | undefined;
  resources?: Partial<Record<ResourceFolder, string>> | undefined;
  components?:
    | { kind: ComponentKind; id: string; path: string; requires?: string[] | undefined }[]
    | undefined;
};
