import type { Environment } from "@skillshelf/core";
import type { PublishedSkill } from "../_publishable.js";

/**
 * Where `publish` writes: a folder made into a static site's `.well-known` skills index, an OCI
 * repository (`oci://host/repository`, `oci+http://` on this machine) and the tag to push, or a
 * git repository, the folder in it and the branch.
 */
export type PublishDestination =
  | { readonly kind: "site"; readonly dir: string }
  | { readonly kind: "oci"; readonly url: string; readonly tag: string }
  | {
      readonly kind: "git";
      readonly url: string;
      readonly folder: string;
      readonly branch?: string | undefined;
    };

/** The kind of a destination: a key of `PUBLISH_DESTINATIONS`. */
export type DestinationKind = PublishDestination["kind"];

/** One file or object a publish writes (or, dry, would write), with its digest. */
export interface PublishedArtifact {
  /** The skill it holds, or none for an index. */
  readonly skill?: string | undefined;
  /** Where it is written: a path, or a reference in a registry. */
  readonly location: string;
  /** `sha256:<64 hex>`, the form indexes and registries write. */
  readonly digest: string;
  /** The size of the file written (an archive, a manifest); absent where no one file is (a git commit). */
  readonly bytes?: number | undefined;
}

/**
 * Everything `publish` does with one kind of destination, as `sources` has one fetcher per kind
 * of source: how it is written on the command line and how skills are written to it.
 */
export interface Destination<K extends DestinationKind> {
  /** What its destination texts look like, for the message when a text is no kind's. */
  readonly syntax: string;
  /** `text` read as this kind's destination, or `undefined` when it is not this kind's. */
  parse(text: string, baseDir: string): Extract<PublishDestination, { kind: K }> | undefined;
  /** The destination as a user types it. */
  describe(destination: Extract<PublishDestination, { kind: K }>): string;
  /** Write `skills` there (with `dryRun`, only say what would be written). */
  write(
    skills: readonly PublishedSkill[],
    destination: Extract<PublishDestination, { kind: K }>,
    options: {
      readonly dryRun: boolean;
      readonly environment: Environment;
      /** Where a working folder is made (a git clone). Default: the OS temporary folder. */
      readonly tempDir?: string | undefined;
      /**
       * The SSH key to sign with (`publish --sign`): a private key file, or a public key file
       * whose private half ssh-agent holds.
       */
      readonly signingKey?: string | undefined;
      /**
       * The package index inside the repository to keep in sync (a path from its root), for a
       * git repository: default its root's `library.yaml` (or `library.json`) when it has one.
       */
      readonly index?: string | undefined;
    },
  ): Promise<readonly PublishedArtifact[]>;
}
