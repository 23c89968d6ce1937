import type {
  Diagnostic,
  Environment,
  PackageKind,
  PackageScope,
  ReadResult,
  ResourceFolder,
} from "@skillshelf/core";
import type { ComponentKind, InstallRecord, PackageFormat, ScopeState } from "./_record-types.js";
import type { ScopeCache } from "./cache.js";

/** One file a package declares as a named part of itself. */
export interface PackageComponent {
  readonly kind: ComponentKind;
  readonly id: string;
  /** Relative to the package folder, `/` separated. */
  readonly path: string;
  /** `kind:id` refs to other components of the same package. */
  readonly requires: readonly string[];
}

/** A resource folder of a package, relative to the package folder (`.` only for a skill package). */
export interface PackageResourceFolder {
  readonly kind: ResourceFolder;
  readonly path: string;
}

/** A package manifest, read and checked. */
export interface PackageManifest {
  /** The package id: the manifest's `name`, and the folder name of an installed copy. */
  readonly id: string;
  /** Explicit SemVer; always present for our format, optional for a Claude Code plugin. */
  readonly version: string | undefined;
  readonly description: string | undefined;
  readonly license: string | undefined;
  readonly format: PackageFormat;
  readonly kind: PackageKind;
  /** Typed refs (`skill:pdf`) to the packages this one needs. */
  readonly requires: readonly string[];
  readonly resources: readonly PackageResourceFolder[];
  readonly components: readonly PackageComponent[];
  /** Absolute path of the manifest file read. */
  readonly manifestPath: string;
  /** sha256 of the manifest file's exact bytes. */
  readonly manifestDigest: string;
}

/** What reading a manifest gave: the manifest when it is valid (with any warnings), or why not. */
export type ManifestResult = ReadResult<PackageManifest>;

// written out beside their schemas, which read exactly them (test/record-types.test.ts)
export type {
  ComponentKind,
  InstallRecord,
  PackageFormat,
  PackageOrigin,
  PreviousRecord,
  ScopeState,
} from "./_record-types.js";

/** A scope's state as read, with the file's exact text (`undefined` when it does not exist; writers refuse if it changes). */
export interface ReadScopeState {
  readonly path: string;
  readonly state: ScopeState;
  readonly text: string | undefined;
}

/** A scope's state as read: valid (an absent file is an empty state) or not, never guessed. */
export type ScopeStateResult = ReadResult<ReadScopeState>;

/**
 * The facts about one copy that a plan was reviewed against; a writer observes them again inside
 * its lock and refuses with `stale_plan` when any differs.
 */
export interface CopyFacts {
  /** The tree digest of `packages/<id>/`, `null` when absent, `unreadable` when it cannot be digested. */
  readonly tree: string | null;
  /** The install record, `null` when there is none. */
  readonly record: InstallRecord | null;
  readonly enabled: boolean;
}

/** Where an installed copy stands, first match wins: see `PackageCopy`. */
export type CopyState = "loadable" | "damaged" | "invalid" | "disabled" | "shadowed";

/** One installed copy of a package in one scope, as a snapshot saw it. */
export interface PackageCopy {
  readonly id: string;
  readonly scope: PackageScope;
  /** The folder its files are read from. */
  readonly dir: string;
  readonly manifest: PackageManifest | undefined;
  readonly record: InstallRecord | undefined;
  /** The tree digest read now, when the tree could be digested. */
  readonly observedDigest: string | undefined;
  readonly enabled: boolean;
  /** Manifest valid, record readable, tree present and equal to its record. */
  readonly valid: boolean;
  /** This copy is the one that counts for its id (project wins among valid copies). */
  readonly effective: boolean;
  /** Valid, enabled and effective: its resources are loaded. */
  readonly loadable: boolean;
  readonly state: CopyState;
  /** The scope whose copy wins over this one. */
  readonly overriddenBy?: PackageScope | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/** Every installed copy in both scopes, each tree verified once. */
export interface PackageSnapshot {
  /** Sorted by id, then the user copy before the project copy (`copiesOf` relies on it). */
  readonly copies: readonly PackageCopy[];
  readonly diagnostics: readonly Diagnostic[];
  /** How many trees reading it digested: one per copy with a tree on disk. */
  readonly treesDigested: number;
  /**
   * The ids it read in each scope whose state it read: `all`, or those asked for (sorted). An id
   * it read and holds no copy of has none there (`snapshotCovers`); a scope it could not read is
   * left out.
   */
  readonly covered?: { readonly [S in PackageScope]?: "all" | readonly string[] } | undefined;
}

/** The scope a writer works in. */
export interface ScopeTarget {
  readonly environment: Environment;
  readonly scope: PackageScope;
  /** Reuse parses of the scope's `state.json` and `lock.json` (`createScopeCache`). */
  readonly cache?: ScopeCache | undefined;
}

/** What a writer did besides its main change: recovered locks and leftovers, kept backups. */
export interface WriteResult {
  readonly id: string;
  readonly scope: PackageScope;
  /** The copy's folder. */
  readonly dir: string;
  /** The record now in `state.json`, `undefined` after a removal. */
  readonly record: InstallRecord | undefined;
  /** A replaced or removed tree whose bytes differed from its record, kept here. */
  readonly packageBackup?: string | undefined;
  readonly diagnostics: readonly Diagnostic[];
}
