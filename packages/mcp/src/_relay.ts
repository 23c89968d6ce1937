import {
  compareText,
  createDiagnostic,
  type Diagnostic,
  isSkillshelfError,
  sha256,
} from "@skillshelf/core";
import type { ListedSkill, SkillsUpstream } from "@skillshelf/sources";
import type { SkillEntry } from "./_listing.js";
import { skillUri } from "./_uri.js";

/** One file of a relayed skill, as its upstream listed it. */
export type RelayedFile = ListedSkill["files"][number];

/** An upstream SEP-2640 server whose skills a gateway serves under its name (`skill://<name>/<path>/…`). */
export type Upstream = SkillsUpstream;

/** A skill served from an upstream: its entry under the gateway's namespace, each file as listed. */
export interface RelayedSkill {
  readonly upstream: Upstream;
  /** `<upstream>/<path upstream>`: how it is addressed here. */
  readonly name: string;
  readonly description: string;
  readonly entry: SkillEntry;
  /** Each file by its path inside the skill, as the upstream listed it (its URI there). */
  readonly files: ReadonlyMap<string, RelayedFile>;
}

/** What every upstream relays at one moment. */
export interface Relayed {
  /** Sorted by URI. */
  readonly skills: readonly RelayedSkill[];
  /** By upstream name, then path upstream. */
  readonly byUpstream: ReadonlyMap<string, ReadonlyMap<string, RelayedSkill>>;
  /** By the URI its `SKILL.md` would have here: why it is not served. */
  readonly withheld: ReadonlyMap<string, Diagnostic>;
  /** Why an upstream relays nothing now (its listing failed): it is listed again on the next refresh. */
  readonly failed: readonly Diagnostic[];
  /** Digest of everything relayed and withheld: two with one key relay the same. */
  readonly key: string;
}

/** Nothing relayed: a server with no upstreams. */
export const NOTHING_RELAYED: Relayed = {
  skills: [],
  byUpstream: new Map(),
  withheld: new Map(),
  failed: [],
  key: "",
};

/**
 * List every upstream and put its skills under its name. An upstream whose listing fails relays
 * nothing until it answers again, and says why in `failed`.
 */
export async function listRelayed(upstreams: readonly Upstream[]): Promise<Relayed> {
  if (upstreams.length === 0) return NOTHING_RELAYED;
  const skills: RelayedSkill[] = [];
  const byUpstream = new Map<string, Map<string, RelayedSkill>>();
  const withheld = new Map<string, Diagnostic>();
  const failed: Diagnostic[] = [];
  for (const upstream of upstreams) {
    const listed = await upstream.list().catch((error: unknown) => {
      failed.push(failure(upstream.name, error));
      return { skills: [], withheld: [] };
    });
    const own = new Map<string, RelayedSkill>();
    byUpstream.set(upstream.name, own);
    for (const skill of listed.skills) {
      const relayed = relayedSkill(upstream, skill);
      own.set(skill.path, relayed);
      skills.push(relayed);
    }
    for (const { path, diagnostic } of listed.withheld)
      withheld.set(namespacedUri(upstream.name, path, "SKILL.md"), diagnostic);
  }
  skills.sort((a, b) => compareText(a.entry.uri, b.entry.uri));
  const key = sha256(
    JSON.stringify([
      skills.map((one) => [one.entry.uri, one.entry.resources]),
      [...withheld].map(([uri, diagnostic]) => [uri, diagnostic.code]),
      failed.map((one) => one.code),
    ]),
  );
  return { skills, byUpstream, withheld, failed, key };
}

/**
 * The relayed skill `segments` (a URI's path, split) name, and the path inside it: the first
 * segment names the upstream, the longest run after it that is one of its skills the skill.
 */
export function relayedAt(
  relayed: Relayed,
  segments: readonly string[],
): { readonly skill: RelayedSkill; readonly relative: string } | undefined {
  const [name, ...rest] = segments;
  const own = name === undefined ? undefined : relayed.byUpstream.get(name);
  if (own === undefined) return undefined;
  for (let end = rest.length; end > 0; end -= 1) {
    const skill = own.get(rest.slice(0, end).join("/"));
    if (skill !== undefined) return { skill, relative: rest.slice(end).join("/") };
  }
  return undefined;
}

// --- internal ---

function failure(upstream: string, error: unknown): Diagnostic {
  const coded = isSkillshelfError(error);
  return createDiagnostic(
    "warning",
    coded ? error.code : "mcp_server_failed",
    `the upstream ${upstream} relays nothing now: ${error instanceof Error ? error.message : String(error)}`,
    { details: { upstream, ...(coded ? error.details : {}) } },
  );
}

/** `skill://<upstream>/<path>/<relative>`. */
function namespacedUri(upstream: string, path: string, relative: string): string {
  return skillUri(upstream, `${path}/${relative}`);
}

function relayedSkill(upstream: Upstream, skill: ListedSkill): RelayedSkill {
  const description = skill.entry.frontmatter.description;
  return {
    upstream,
    name: `${upstream.name}/${skill.path}`,
    description: typeof description === "string" ? description : "",
    entry: {
      uri: namespacedUri(upstream.name, skill.path, "SKILL.md"),
      frontmatter: skill.entry.frontmatter,
      // the digests and sizes pass through: the bytes served are the upstream's, checked on each read
      resources: skill.files.map((file) => ({
        uri: namespacedUri(upstream.name, skill.path, file.relative),
        digest: file.digest,
        size: file.size,
      })),
    },
    files: new Map(skill.files.map((file) => [file.relative, file])),
  };
}
