import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  AUDIT_SEVERITIES,
  type AuditSeverity,
  createDiagnostic,
  type Diagnostic,
  type Environment,
  type PackageSource,
  parseJson,
  readRegularFile,
} from "@skillshelf/core";

/** One advisory of a feed (OSV-like names): what it revokes, and why. */
export interface Advisory {
  readonly id: string;
  readonly summary: string;
  readonly severity: AuditSeverity;
  readonly published: string;
  readonly revoked: {
    /** Tree digests, as the lock records them (64 hex; `sha256:` before them is read too). */
    readonly digests: readonly string[];
    /** Source texts or prefixes of them (`https://github.com/evil/`), as `describeSource` writes them. */
    readonly sources: readonly string[];
  };
}

/** An advisory feed: `{ "version": 1, "advisories": [...] }`. */
export interface AdvisoryFeed {
  readonly version: 1;
  readonly advisories: readonly Advisory[];
}

/** A feed as this machine keeps it: the feed, where it came from and when, and who signed it. */
export interface KeptFeed {
  readonly name: string;
  readonly source: string;
  readonly fetchedAt: string;
  readonly signer?: string | undefined;
  readonly feed: AdvisoryFeed;
}

/** Where the feeds this machine follows are kept: `advisories/` in the user library, one file each. */
export function advisoriesDir(environment: Environment): string {
  return join(environment.configDir, "advisories");
}

/**
 * The feed in `text`, or why it is not one (`advisory_feed_invalid`'s message): JSON, version 1,
 * each advisory with an id, a summary, a severity of the audit's, a published time and what it
 * revokes (digests of 64 hex, with or without `sha256:`; sources as text).
 */
export function parseAdvisoryFeed(text: string): FeedRead {
  const parsed = parseJson(text);
  return parsed.ok ? advisoryFeedOf(parsed.value) : { ok: false, problem: "it is not JSON" };
}

/**
 * Every feed kept on this machine (`advisoriesDir`), each file read strictly: one that is not a
 * regular file or does not read is a diagnostic (`advisory_feed_invalid`), and revokes nothing.
 */
export function readAdvisories(environment: Environment): {
  readonly feeds: readonly KeptFeed[];
  readonly diagnostics: readonly Diagnostic[];
} {
  const dir = advisoriesDir(environment);
  if (lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() !== true)
    return { feeds: [], diagnostics: [] };
  const feeds: KeptFeed[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const name of readdirSync(dir)
    .filter((one) => one.endsWith(".json"))
    .sort()) {
    const path = join(dir, name);
    const kept = keptFeed(path);
    if (kept === undefined)
      diagnostics.push(
        createDiagnostic(
          "warning",
          "advisory_feed_invalid",
          `${path} is not a feed Skillshelf kept; it revokes nothing`,
          { path },
        ),
      );
    else feeds.push(kept);
  }
  return { feeds, diagnostics };
}

/**
 * The first advisory of `feeds` that revokes a copy of tree digest `digest` (the lock's hex)
 * installed from `source`, with the feed it is in; or none. A source is named by where it is (its
 * URL, `npm:<name>`, or its folder), a prefix matching at a boundary (`/`, `#`, `:`, `@` or the end).
 */
export function advisoryFor(
  feeds: readonly KeptFeed[],
  copy: { readonly digest: string; readonly source: PackageSource },
): { readonly advisory: Advisory; readonly feed: string } | undefined {
  if (feeds.length === 0) return undefined;
  const digest = copy.digest.replace(/^sha256:/, "");
  const places = sourcePlaces(copy.source);
  for (const kept of feeds)
    for (const advisory of kept.feed.advisories)
      if (
        advisory.revoked.digests.includes(digest) ||
        advisory.revoked.sources.some((prefix) =>
          places.some((place) => sourceStartsWith(place, prefix)),
        )
      )
        return { advisory, feed: kept.name };
  return undefined;
}

// --- internal ---

/** A feed read, or why it is not one. */
type FeedRead =
  | { readonly ok: true; readonly feed: AdvisoryFeed }
  | { readonly ok: false; readonly problem: string };

/** A parsed JSON value read as a feed: `parseAdvisoryFeed` without the text. */
function advisoryFeedOf(parsed: unknown): FeedRead {
  const value = parsed as { version?: unknown; advisories?: unknown } | null;
  if (value?.version !== 1 || !Array.isArray(value.advisories))
    return { ok: false, problem: 'it is not { "version": 1, "advisories": [...] }' };
  const advisories: Advisory[] = [];
  for (const [index, raw] of value.advisories.entries()) {
    const one = raw as Partial<Record<keyof Advisory, unknown>> | null;
    const revoked = one?.revoked as { digests?: unknown; sources?: unknown } | undefined;
    const texts = (list: unknown) =>
      list === undefined
        ? []
        : Array.isArray(list) && list.every((item) => typeof item === "string")
          ? (list as string[])
          : undefined;
    const digests = texts(revoked?.digests)?.map((digest) => digest.replace(/^sha256:/, ""));
    const sources = texts(revoked?.sources);
    if (
      typeof one?.id !== "string" ||
      one.id === "" ||
      typeof one.summary !== "string" ||
      !AUDIT_SEVERITIES.includes(one.severity as AuditSeverity) ||
      typeof one.published !== "string" ||
      digests === undefined ||
      sources === undefined ||
      !digests.every((digest) => /^[0-9a-f]{64}$/.test(digest)) ||
      digests.length + sources.length === 0
    )
      return {
        ok: false,
        problem: `advisories[${index}] needs id, summary, severity (${AUDIT_SEVERITIES.join(", ")}), published and revoked digests (64 hex) or sources`,
      };
    advisories.push({
      id: one.id,
      summary: one.summary,
      severity: one.severity as AuditSeverity,
      published: one.published,
      revoked: { digests, sources },
    });
  }
  return { ok: true, feed: { version: 1, advisories } };
}

const MAX_FEED_BYTES = 16 * 1024 * 1024;

function keptFeed(path: string): KeptFeed | undefined {
  let text: string;
  try {
    text = readRegularFile(path, MAX_FEED_BYTES, { noFollow: true }).toString("utf8");
  } catch {
    return undefined;
  }
  const parsed = parseJson(text);
  const value = (parsed.ok ? parsed.value : undefined) as Partial<KeptFeed> | undefined;
  if (
    typeof value?.name !== "string" ||
    typeof value.source !== "string" ||
    typeof value.fetchedAt !== "string"
  )
    return undefined;
  const feed = advisoryFeedOf(value.feed);
  if (!feed.ok) return undefined;
  return {
    name: value.name,
    source: value.source,
    fetchedAt: value.fetchedAt,
    ...(typeof value.signer === "string" ? { signer: value.signer } : {}),
    feed: feed.feed,
  };
}

/** Where a source is, as an advisory names it: its URL, `npm:<name>`, or its folder. */
function sourcePlaces(source: PackageSource): string[] {
  const fields = source as { url?: string; name?: string; path?: string };
  return [
    ...(fields.url === undefined ? [] : [fields.url]),
    ...(source.type === "npm" && fields.name !== undefined ? [`npm:${fields.name}`] : []),
    ...(source.type === "local" && fields.path !== undefined ? [fields.path] : []),
  ];
}

function sourceStartsWith(source: string, prefix: string): boolean {
  if (!source.startsWith(prefix)) return false;
  const next = source.charAt(prefix.length);
  return /[/#:@]$/.test(prefix) || next === "" || "/#:@".includes(next);
}
