import type {
  Diagnostic,
  PackageKind,
  PackageSource,
  ResourceKind,
  TreeStamp,
} from "@skillshelf/core";

/** A body-free hint of a resource a package provides, for search before install. */
export interface ProvidedResource {
  readonly kind: ResourceKind;
  readonly name: string;
  readonly description?: string | undefined;
}

/** Where an index row was read from: the bundled example index or a user, project or `--from` index. */
export type IndexOrigin = "bundled" | "user" | "project" | "from";

/** One package an index offers. */
export interface IndexRow {
  readonly kind: PackageKind;
  /** The package id. */
  readonly name: string;
  readonly description: string;
  /** Explicit SemVer; required in `library.yaml`, optional in a `marketplace.json`. */
  readonly version: string | undefined;
  /** The pinned tree digest; required in `library.yaml`, absent from a `marketplace.json`. */
  readonly sha256: string | undefined;
  /** The source as written in the index. */
  readonly sourceUrl: string;
  /** The source resolved: relative paths made absolute beside the index. */
  readonly source: PackageSource;
  readonly requires: readonly string[];
  readonly category?: string | undefined;
  readonly triggers?: readonly string[] | undefined;
  readonly provides?: readonly ProvidedResource[] | undefined;
  /** `claude-code` for `marketplace.json` rows: the package is expected to be a Claude Code plugin. */
  readonly format: "skillshelf" | "claude-code";
  /** Absolute path of the index file (evidence, never written back). */
  readonly index: string;
  /**
   * What to call the index where a person reads it: the name it gives itself (a marketplace's
   * `name`), else the URL it was fetched from, else its path.
   */
  readonly catalog: string;
  readonly origin: IndexOrigin;
}

/** The rows of one index file, and every finding. A malformed row is dropped, the rest kept. */
export interface IndexResult {
  readonly path: string;
  readonly format: "library" | "marketplace";
  readonly rows: readonly IndexRow[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Every index of an environment merged: later indexes override earlier rows of the same `kind:name`. */
export interface LibraryDiscovery {
  /** Sorted by `kind:name`. */
  readonly rows: readonly IndexRow[];
  /** The index files read, in merge order. */
  readonly indexes: readonly { readonly path: string; readonly origin: IndexOrigin }[];
  readonly diagnostics: readonly Diagnostic[];
}

/** A package source fetched into a private folder. */
export interface StagedSource extends FetchedSource {
  /** Its tree digest. */
  readonly digest: string;
  /**
   * Where the digest was read in place: the tree's stamp taken just before, and its files'
   * fingerprints, so a writer that moves the tree in need not read it again while the stamp holds.
   */
  readonly stamped?:
    | (TreeStamp & { readonly listing: Readonly<Record<string, string>> })
    | undefined;
}

/**
 * A source fetched into a private staging folder (`fetchSource`), its tree not yet read as a
 * whole: a copied folder's digest comes with it, a checkout's or an archive's does not.
 */
export interface FetchedSource {
  /** The staged folder (for a subfolder source, that subfolder). */
  readonly dir: string;
  /** Its tree digest, when the fetch had it for nothing (a copy is hashed as it is written). */
  readonly digest?: string | undefined;
  readonly source: PackageSource;
  /** The commit a git source resolved to. */
  readonly commit?: string | undefined;
  /**
   * Who signed what was fetched, where a signature came with it and verified: the signing key's
   * fingerprint (`ssh:SHA256:…`) by the folder it signs, relative to `dir` (`.`: all of it).
   */
  readonly signers?: Readonly<Record<string, string>> | undefined;
  /**
   * The commit of each folder fetched whole that has one of its own, by folder relative to `dir`:
   * an MCP server's skills each have their own digest set, where a repository has one commit.
   */
  readonly commits?: Readonly<Record<string, string>> | undefined;
  /** What the fetch found to say (`Fetcher.fetch`'s `findings`), each with its own code. */
  readonly findings?: readonly Diagnostic[] | undefined;
  /** The mirror it was fetched from instead of its upstream: the `to` of the rule that rewrote it. */
  readonly mirror?: string | undefined;
  /** Delete the staged files; safe to call more than once. */
  release(): void;
}
