import { join } from "node:path";
import {
  type Diagnostic,
  type Environment,
  type HintedDiagnostic,
  type PackageScope,
  SkillshelfError,
} from "@skillshelf/core";
import {
  type Advisory,
  advisoriesDir,
  type KeptFeed,
  parseAdvisoryFeed,
  readAdvisories,
} from "@skillshelf/policy";
import { revokedCopies, revokedDiagnostic } from "@skillshelf/resources";
import { describeSource, fetchPublishedFile, type StageOptions } from "@skillshelf/sources";
import { readPackageSnapshot } from "@skillshelf/store";
import { writeJsonFile } from "./_json-file.js";
import { checkSignedBy } from "./_signed-by.js";

/** The file a source holding a feed keeps it in, when the source is not the file itself. */
const FEED_FILE = "advisories.json";
const MAX_FEED_BYTES = 16 * 1024 * 1024;

/**
 * Follow the advisory feed at `source` (an https URL of the JSON file, a file here, or any source
 * holding `advisories.json`): fetched, parsed (`advisory_feed_invalid` when it is not a feed),
 * its signature beside it checked against `signer` (an SSH public key line) when one is named
 * (`signature_missing`, `signature_invalid`), then kept as `advisories/<name>.json` in the user
 * library, where every check reads it with no network. Fetching it again replaces it.
 */
export async function addAdvisoryFeed(request: {
  readonly environment: Environment;
  readonly source: string;
  readonly name: string;
  readonly signer?: string | undefined;
  readonly options: StageOptions;
}): Promise<KeptFeed> {
  const { environment, source, name } = request;
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(name))
    throw new SkillshelfError(
      "advisory_feed_invalid",
      `${name} cannot name a feed: use lowercase letters, digits and hyphens`,
      { details: { name } },
    );
  const published = await fetchPublishedFile(source, FEED_FILE, {
    ...request.options,
    cwd: environment.cwd,
    maxBytes: MAX_FEED_BYTES,
  });
  const parsed = parseAdvisoryFeed(published.bytes.toString("utf8"));
  if (!parsed.ok)
    throw new SkillshelfError(
      "advisory_feed_invalid",
      `the advisory feed ${source} is not one: ${parsed.problem}`,
      { details: { source } },
    );
  const signer =
    request.signer === undefined
      ? undefined
      : await checkSignedBy(published, request.signer, {
          source,
          file: FEED_FILE,
          what: "the advisory feed",
        });
  const kept: KeptFeed = {
    name,
    source,
    fetchedAt: new Date().toISOString(),
    ...(signer === undefined ? {} : { signer }),
    feed: parsed.feed,
  };
  writeJsonFile(join(advisoriesDir(environment), `${name}.json`), kept);
  return kept;
}

/** One installed copy an advisory names. */
export interface RevokedCopy {
  readonly id: string;
  readonly scope: PackageScope;
  readonly dir: string;
  readonly digest: string;
  readonly source: string;
  readonly advisory: Advisory;
  readonly feed: string;
}

/**
 * Every installed copy of both scopes an advisory of the feeds kept here names, by its tree
 * digest or its source, with the feeds that did not read.
 */
export function checkAdvisories(environment: Environment): {
  readonly revoked: readonly RevokedCopy[];
  readonly feeds: readonly KeptFeed[];
  readonly diagnostics: readonly Diagnostic[];
} {
  const { feeds, diagnostics } = readAdvisories(environment);
  // no feed, no snapshot: nothing installed is digested for nothing
  const snapshot = feeds.length === 0 ? undefined : readPackageSnapshot(environment);
  const revoked = (snapshot === undefined ? [] : revokedCopies(snapshot, feeds)).map(
    ({ copy, advisory, feed }): RevokedCopy => ({
      id: copy.id,
      scope: copy.scope,
      dir: copy.dir,
      digest: copy.record?.contentDigest ?? "",
      source: copy.record === undefined ? "" : describeSource(copy.record.origin.source),
      advisory,
      feed,
    }),
  );
  return { revoked, feeds, diagnostics };
}

/** The refusal of a copy an advisory names (`advisory_revoked`, with its id and summary). */
export function advisoryRefusal(
  hit: { readonly advisory: Advisory; readonly feed: string },
  what: string,
): HintedDiagnostic {
  return revokedDiagnostic(hit, what, "error");
}
