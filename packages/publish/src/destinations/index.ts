import { SkillshelfError } from "@skillshelf/core";
import type { Destination, DestinationKind, PublishDestination } from "./_destination.js";
import { GIT_REPOSITORY } from "./git.js";
import { OCI_DESTINATION } from "./oci.js";
import { SITE_DESTINATION } from "./site.js";

/** Every kind of place `publish` writes to: one entry each. */
export const PUBLISH_DESTINATIONS: { readonly [K in DestinationKind]: Destination<K> } = {
  site: SITE_DESTINATION,
  oci: OCI_DESTINATION,
  git: GIT_REPOSITORY,
};

/** The destination `text` names (each kind asked in turn), or `publish_destination_invalid`. */
export function parseDestination(text: string, baseDir: string): PublishDestination {
  const kinds = Object.values(PUBLISH_DESTINATIONS);
  for (const kind of kinds) {
    const parsed = kind.parse(text, baseDir);
    if (parsed !== undefined) return parsed;
  }
  throw new SkillshelfError(
    "publish_destination_invalid",
    `${text} is not a place Skillshelf publishes to: ${kinds.map((kind) => kind.syntax).join("; ")}`,
    { details: { destination: text } },
  );
}

/** The destination of its kind. */
export function destinationOf<K extends DestinationKind>(kind: K): Destination<K> {
  return PUBLISH_DESTINATIONS[kind] as Destination<K>;
}

/** A destination as a user types it. */
export function describeDestination(destination: PublishDestination): string {
  const describe = destinationOf(destination.kind).describe as (one: PublishDestination) => string;
  return describe(destination);
}
