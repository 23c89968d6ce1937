import { resolve } from "node:path";
import {
  type Diagnostic,
  type EnvironmentInput,
  resolveEnvironment,
  SkillshelfError,
} from "@skillshelf/core";
import { publishableSkills } from "./_publishable.js";
import type { PublishDestination, PublishedArtifact } from "./destinations/_destination.js";
import { destinationOf, parseDestination } from "./destinations/index.js";

export type {
  DestinationKind,
  PublishDestination,
  PublishedArtifact,
} from "./destinations/_destination.js";
export {
  describeDestination,
  PUBLISH_DESTINATIONS,
  parseDestination,
} from "./destinations/index.js";

/** What to publish, and where. */
export interface PublishRequest {
  /** A skill's folder, a folder of skills, or a package's folder. */
  readonly folder: string;
  /** Where to: `site:<dir>` or `oci://host/repository[:tag]` (see `PUBLISH_DESTINATIONS`). */
  readonly destination: string;
  /** Say what would be written, and write nothing. */
  readonly dryRun?: boolean | undefined;
  readonly environment?: EnvironmentInput | undefined;
  /** Where staging folders are made. Default: the OS temporary folder. */
  readonly tempDir?: string | undefined;
  /**
   * Sign what is published with this SSH key (a private key file, or a public key file whose
   * private half ssh-agent holds): a detached signature beside each artifact on a site or in a
   * registry, a signed commit in a git repository; installs verify it.
   */
  readonly sign?: string | undefined;
  /**
   * For a git repository: the package index in it (a path from its root) whose rows of the
   * published skills are updated in the same commit; by default its root's `library.yaml` (or
   * `library.json`), when it has one. `publish_index_unsupported` for another destination.
   */
  readonly index?: string | undefined;
}

/** What `publish` did (or, dry, would do). */
export interface PublishResult {
  readonly destination: PublishDestination;
  /** False when validation refused the folder: nothing was written. */
  readonly published: boolean;
  readonly dryRun: boolean;
  /** Each skill published and its tree digest (`sha256:<hex>`), what an install of it records. */
  readonly skills: readonly { readonly name: string; readonly digest: string }[];
  readonly artifacts: readonly PublishedArtifact[];
  /** Strict validation's findings (errors when `published` is false). */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Publish the skills of `request.folder` to `request.destination`: validated strictly first (any
 * error refuses the whole publish, nothing written), each skill staged as `install` would copy
 * it, then written by the destination's kind. Throws a `SkillshelfError` for a destination it
 * cannot read or write (`publish_destination_invalid`, `publish_destination_unreadable`).
 */
export async function publish(request: PublishRequest): Promise<PublishResult> {
  const environment = resolveEnvironment(request.environment);
  const destination = parseDestination(request.destination, environment.cwd);
  const dryRun = request.dryRun === true;
  const key = request.sign === undefined ? undefined : resolve(environment.cwd, request.sign);
  if (request.index !== undefined && destination.kind !== "git")
    throw new SkillshelfError(
      "publish_index_unsupported",
      `${request.destination} is not a git repository; --index names an index in one`,
      { details: { destination: request.destination } },
    );
  const found = await publishableSkills(resolve(environment.cwd, request.folder), {
    environment: request.environment,
    tempDir: request.tempDir,
  });
  if (!found.ok)
    return {
      destination,
      published: false,
      dryRun,
      skills: [],
      artifacts: [],
      diagnostics: found.diagnostics,
    };
  try {
    const artifacts = await destinationOf(destination.kind).write(found.skills, destination, {
      dryRun,
      environment,
      tempDir: request.tempDir,
      ...(key === undefined ? {} : { signingKey: key }),
      ...(request.index === undefined ? {} : { index: request.index }),
    });
    return {
      destination,
      published: !dryRun,
      dryRun,
      skills: found.skills.map((skill) => ({
        name: skill.name,
        digest: `sha256:${skill.staged.digest}`,
      })),
      artifacts,
      diagnostics: found.diagnostics,
    };
  } finally {
    found.release();
  }
}
