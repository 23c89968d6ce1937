// A gateway's upstreams: an MCP skills server's listing judged skill by skill against what the
// user approved (`trust <mcp source>`: fetched, audited, bound to the listing's digests) and the
// policy in force, before anything of it reaches a client.
import { join } from "node:path";
import {
  type AuditSeverity,
  canonicalJson,
  createDiagnostic,
  type Diagnostic,
  type Environment,
  errorDiagnostic,
  isSkillshelfError,
  type PackageScope,
  SkillshelfError,
  type SourceOf,
} from "@skillshelf/core";
import {
  type EffectivePolicy,
  type PolicyViolation,
  policyViolations,
  readPolicy,
  sourceViolations,
} from "@skillshelf/policy";
import {
  checkListedFrontmatter,
  connectSkillsServer,
  describeSource,
  fetchSource,
  type ListedSkill,
  parseSourceUrl,
  type SkillsConnection,
  type SkillsUpstream,
  type StageOptions,
} from "@skillshelf/sources";
import {
  type Consent,
  PACKAGE_SCOPES,
  readConsents,
  upstreamConsentKey,
  writeConsent,
} from "@skillshelf/store";
import { auditStaged } from "./_audit.js";
import { auditThreshold, sourceFacts, violationRefusal } from "./_policy.js";
import type { AuditRequest, Refusal, TrustedItem, TrustResult } from "./types.js";

/** An MCP source: a server (`mcp+stdio:…`, `mcp+https://…`), or one skill on it. */
export type McpSource = SourceOf<"mcp">;

/** The `mcp` source `text` names, or `undefined` when it names another kind (or none). */
export function mcpSourceOf(text: string, cwd: string): McpSource | undefined {
  const parsed = parseSourceUrl(text, cwd);
  return parsed.ok && parsed.source.type === "mcp" ? parsed.source : undefined;
}

/**
 * Connect to the upstream `source` for a gateway that serves its skills under `name`. The
 * policy's `sources` rules are applied to it first (`policy_refused`, nothing connected); a server
 * that cannot be reached, or serves no skills, is refused with its code. Each listing is judged
 * skill by skill: approved for exactly its digests in either scope's `trust.json`, its listed
 * frontmatter the one in its `SKILL.md`, and allowed by the policy read again each time. A listing
 * that fails drops the connection, and the next listing connects again.
 */
export async function openUpstream(request: {
  readonly environment: Environment;
  readonly name: string;
  readonly source: McpSource;
  readonly options: StageOptions;
}): Promise<SkillsUpstream> {
  const { environment, name, source } = request;
  const server: McpSource = { type: "mcp", url: source.url };
  const refused = violationRefusal(
    sourceViolations(readPolicyOrThrow(environment), sourceFacts(server)),
    describeSource(server),
  );
  if (refused !== undefined)
    throw new SkillshelfError(refused.code, refused.message, { details: refused.details });
  const ended = new AbortController();
  const options = { ...request.options, signal: ended.signal };
  let connection: Promise<SkillsConnection> | undefined = connectSkillsServer(source.url, options);
  await connection;
  const connected = (): Promise<SkillsConnection> => {
    connection ??= connectSkillsServer(source.url, options);
    return connection;
  };
  const dropped = async (): Promise<void> => {
    const gone = connection;
    connection = undefined;
    await gone?.then((one) => one.close()).catch(() => undefined);
  };
  // the approved skills whose listed frontmatter was found in their SKILL.md: the digests cover
  // the file, not what the listing shows of it, so it is read once for each listing seen
  const matched = new Set<string>();
  const frontmatterRefusal = async (skill: ListedSkill): Promise<Diagnostic | undefined> => {
    const seen = `${skill.listingDigest}\0${canonicalJson(skill.entry.frontmatter)}`;
    if (matched.has(seen)) return undefined;
    const file = skill.files.find((one) => one.relative === "SKILL.md");
    try {
      if (file !== undefined) checkListedFrontmatter(skill, await (await connected()).read(file));
    } catch (error) {
      if (!isSkillshelfError(error)) throw error;
      return errorDiagnostic(error);
    }
    matched.add(seen);
    return undefined;
  };
  return {
    name,
    list: async () => {
      let listing: Awaited<ReturnType<SkillsConnection["list"]>>;
      try {
        listing = await (await connected()).list();
      } catch (error) {
        await dropped();
        throw error;
      }
      const policy = readPolicy(environment);
      const approvals = upstreamApprovals(environment);
      const skills: ListedSkill[] = [];
      const withheld: { path: string; diagnostic: Diagnostic }[] = [];
      for (const skill of listing.skills) {
        const diagnostic = withheldReason(skill, {
          key: upstreamConsentKey(describeSource({ ...server, path: skill.path })),
          approvals,
          policy,
          server,
        });
        const refused = diagnostic ?? (await frontmatterRefusal(skill));
        if (refused === undefined) skills.push(skill);
        else withheld.push({ path: skill.path, diagnostic: refused });
      }
      for (const { error } of listing.declined) {
        const path = error.details?.path;
        if (typeof path === "string") withheld.push({ path, diagnostic: errorDiagnostic(error) });
      }
      return { skills, withheld };
    },
    read: async (file) => (await connected()).read(file),
    close: async () => {
      await dropped();
      ended.abort();
    },
  };
}

/**
 * Approve the skills an MCP source names for a gateway to relay (`trust mcp+…`): each fetched
 * (every file checked against the listing's digests), audited as an install is (findings at or
 * above the threshold refuse it unless approved; above the policy's highest severity, or against
 * any other rule of the policy, it is refused), then recorded in the scope's `trust.json` bound to
 * its listing's digests. All or nothing: one refused, none is recorded.
 */
export async function trustUpstream(request: {
  readonly environment: Environment;
  readonly scope: PackageScope;
  readonly source: McpSource;
  readonly audit?: AuditRequest | undefined;
  readonly options: StageOptions;
}): Promise<TrustResult> {
  const { environment, source } = request;
  const policy = readPolicy(environment);
  if (policy.invalid !== undefined) return { refusal: policy.invalid };
  let fetched: Awaited<ReturnType<typeof fetchSource>>;
  try {
    fetched = await fetchSource(source, request.options);
  } catch (error) {
    if (!isSkillshelfError(error)) throw error;
    return { refusal: errorDiagnostic(error) };
  }
  try {
    const skills =
      source.path === undefined
        ? Object.entries(fetched.commits ?? {}).map(([path, digest]) => ({
            path,
            dir: join(fetched.dir, path),
            digest,
          }))
        : [{ path: source.path, dir: fetched.dir, digest: fetched.commit ?? "" }];
    // a consent keeps the hex of a digest, as every record does
    if (skills.length === 0)
      return {
        refusal: createDiagnostic(
          "error",
          "mcp_skill_missing",
          `${describeSource(source)} serves no skill that can be approved`,
          { details: { url: source.url } },
        ),
      };
    const threshold = auditThreshold({ request, policy });
    const checked = skills.map((skill) => {
      const named = describeSource({ ...source, path: skill.path });
      const audited = auditStaged(skill.dir, { ...request.audit, threshold });
      const violations = upstreamSkillViolations(policy, source, skill.path, audited.audit.highest);
      return {
        item: {
          key: upstreamConsentKey(named),
          path: named,
          digest: skill.digest.replace(/^sha256:/, ""),
        },
        ...audited,
        refusal: violationRefusal(violations, named) ?? audited.refusal,
      };
    });
    const refused = checked.find((one) => one.refusal !== undefined);
    if (refused?.refusal !== undefined) return { refusal: refused.refusal, audit: refused.audit };
    const at = new Date().toISOString();
    for (const { item, record } of checked)
      writeConsent(request, item.key, { digest: item.digest, at, audit: record });
    return {
      trusted: checked.map(({ item, audit }): TrustedItem => ({ ...item, audit })),
      ...(fetched.findings === undefined ? {} : { skipped: fetched.findings }),
    };
  } finally {
    fetched.release();
  }
}

/**
 * Whether the consent `key` is one `untrust TARGET` takes back: `TARGET` names an MCP server and the
 * key one of its skills, or `TARGET` names that very skill.
 */
export function upstreamKeyNamed(key: string, target: string, cwd: string): boolean {
  if (!key.startsWith("upstream:")) return false;
  const named = mcpSourceOf(target, cwd);
  const held = mcpSourceOf(key.slice("upstream:".length), cwd);
  return (
    named !== undefined &&
    held !== undefined &&
    named.url === held.url &&
    (named.path === undefined || named.path === held.path)
  );
}

// --- internal ---

/** Every `upstream:` consent of both scopes, by key (the project's beside the user's). */
function upstreamApprovals(environment: Environment): ReadonlyMap<string, Consent[]> {
  const approvals = new Map<string, Consent[]>();
  for (const scope of PACKAGE_SCOPES) {
    const read = readConsents(environment, scope);
    if (!read.ok) continue;
    for (const [key, consent] of Object.entries(read.value.value.trusted))
      if (key.startsWith("upstream:")) approvals.set(key, [...(approvals.get(key) ?? []), consent]);
  }
  return approvals;
}

/** Why `skill` is withheld from clients now, or `undefined` when it may be relayed. */
function withheldReason(
  skill: ListedSkill,
  context: {
    readonly key: string;
    readonly approvals: ReadonlyMap<string, Consent[]>;
    readonly policy: EffectivePolicy;
    readonly server: McpSource;
  },
): Diagnostic | undefined {
  const { key, approvals, policy, server } = context;
  const named = key.slice("upstream:".length);
  if (policy.invalid !== undefined) return policy.invalid;
  const given = approvals.get(key) ?? [];
  const approval = given.find((one) => `sha256:${one.digest}` === skill.listingDigest);
  if (approval === undefined)
    return createDiagnostic(
      "warning",
      given.length === 0 ? "mcp_upstream_unapproved" : "mcp_upstream_changed",
      given.length === 0
        ? `${named} is not approved`
        : `${named} lists other files or digests than the ones approved`,
      {
        details: {
          source: named,
          listed: skill.listingDigest,
          ...(given.length === 0 ? {} : { approved: given.map((one) => `sha256:${one.digest}`) }),
        },
      },
    );
  return violationRefusal(
    upstreamSkillViolations(policy, server, skill.path, approval.audit?.highest),
    named,
  );
}

/**
 * The policy's rules an upstream's skill at `path` breaks, judged as a package of its own: its
 * server as the source, its name, its audit's worst finding, and no signature of ours.
 */
function upstreamSkillViolations(
  policy: EffectivePolicy,
  server: McpSource,
  path: string,
  highest: AuditSeverity | undefined,
): PolicyViolation[] {
  return policyViolations(policy, {
    id: path,
    source: sourceFacts(server),
    skills: [{ name: path.split("/").at(-1) ?? path }],
    highest,
    signature: { missing: true },
  });
}

function readPolicyOrThrow(environment: Environment): EffectivePolicy {
  const policy = readPolicy(environment);
  const invalid: Refusal | undefined = policy.invalid;
  if (invalid !== undefined)
    throw new SkillshelfError(invalid.code, invalid.message, { path: invalid.path });
  return policy;
}
