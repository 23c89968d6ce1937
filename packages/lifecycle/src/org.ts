// The org channel: fetched, checked against the pin the member accepted and kept here (`org
// join`, `org sync`, `org leave`); judged as data in `policy`. What the org sets reaches every
// change through `readPolicy` (its policy layer and mirrors), the sources and the advisory feeds
// it adds, and `install --team`.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  type Environment,
  isSkillshelfError,
  type PackageScope,
  type PackageSource,
  SkillshelfError,
} from "@skillshelf/core";
import { readInventory } from "@skillshelf/inventory";
import {
  advisoriesDir,
  DEFAULT_CHANNEL,
  type KeptOrg,
  keptOrgPath,
  ORG_FILE,
  type OrgPin,
  orgAge,
  parseOrgFile,
  readKeptOrg,
  readScopeOrg,
  type ScopeOrg,
  samePin,
  scopeOrgPath,
  teamSet,
} from "@skillshelf/policy";
import {
  addRemoteScopeSource,
  fetchPublishedFile,
  fetchRemoteIndex,
  parseRemoteIndex,
  parseSourceSpec,
  removeScopeSource,
  type StageOptions,
} from "@skillshelf/sources";
import { readScopeState, type ScopeCache } from "@skillshelf/store";
import { writeJsonFile } from "./_json-file.js";
import { checkSignedBy } from "./_signed-by.js";
import { addAdvisoryFeed } from "./advisories.js";
import { installedFrom } from "./installed-from.js";

/** An org file is a page of settings; anything past this is not one. */
const MAX_ORG_BYTES = 1024 * 1024;

/** The advisory feeds an org adds are kept under its names with this before them. */
const ORG_FEED_PREFIX = "org-";

/** What joining (or syncing) did: the org kept, and what of it did not apply (a feed, an index). */
export interface JoinedOrg {
  readonly kept: KeptOrg;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Join the org whose `org.yaml` is at `source` (a git repository, an OCI artifact, an https URL
 * of the file, a folder): fetched through the user's client, proxies and mirrors, checked against
 * `pin` — its SSH signature beside it by the signer accepted (`signature_missing`,
 * `signature_invalid`), or its sha256 (`org_digest_mismatch`) — read strictly (`org_invalid`),
 * then kept in the user library. Its indexes are added to the user's sources and its advisory
 * feeds followed (`org-<name>`); one that cannot be fetched is a warning, the org still joined.
 * Joining again (`org sync`) replaces what it added. Another org joined: `org_already_joined`.
 */
export async function joinOrg(request: {
  readonly environment: Environment;
  readonly source: string;
  readonly pin: OrgPin;
  readonly options: StageOptions;
}): Promise<JoinedOrg> {
  const { environment, pin, options } = request;
  // a folder or file here is kept by its absolute path: `org sync` may run from anywhere
  const local = resolve(environment.cwd, request.source);
  const source = existsSync(local) ? local : request.source;
  const before = readKeptOrg(environment).kept;
  if (before !== undefined && before.source !== source)
    throw new SkillshelfError(
      "org_already_joined",
      `this machine follows the org ${before.org.name} (${before.source}); ${source} is another`,
      { details: { org: before.org.name, source: before.source } },
    );
  const published = await fetchPublishedFile(source, ORG_FILE, {
    ...options,
    mirrors: ownMirrors(environment, options.mirrors),
    cwd: environment.cwd,
    maxBytes: MAX_ORG_BYTES,
  });
  const digest = `sha256:${createHash("sha256").update(published.bytes).digest("hex")}`;
  if (pin.signer !== undefined)
    await checkSignedBy(published, pin.signer, { source, file: ORG_FILE, what: "the org file at" });
  else if (pin.digest !== digest)
    throw new SkillshelfError(
      "org_digest_mismatch",
      `the org file at ${source} is ${digest}, not the ${pin.digest} pinned`,
      { details: { source, expected: pin.digest, actual: digest } },
    );
  const parsed = parseOrgFile(published.bytes.toString("utf8"), source);
  if (!parsed.ok) {
    const [first] = parsed.diagnostics;
    throw new SkillshelfError(
      "org_invalid",
      `the org file at ${source} does not follow its format: ${first?.message ?? "invalid"}`,
      { details: { source, problems: parsed.diagnostics.map((one) => one.message) } },
    );
  }
  const { org } = parsed;
  const diagnostics: Diagnostic[] = [];
  const addedSources = await addOrgSources(
    environment,
    { texts: org.sources ?? [], before: before?.addedSources ?? [] },
    options,
    diagnostics,
  );
  for (const gone of before?.addedSources ?? [])
    if (!addedSources.includes(gone)) removeScopeSource(environment, "user", gone);
  await followOrgFeeds(environment, org.advisories ?? [], options, diagnostics);
  const kept: KeptOrg = {
    source,
    pin,
    fetchedAt: new Date().toISOString(),
    digest,
    org,
    addedSources,
  };
  writeJsonFile(keptOrgPath(environment), kept);
  return { kept, diagnostics };
}

/** Fetch the org joined again, with the pin it was joined with (`org_not_joined` when none). */
export async function syncOrg(request: {
  readonly environment: Environment;
  readonly options: StageOptions;
}): Promise<JoinedOrg> {
  const kept = joinedOrg(request.environment);
  return joinOrg({ ...request, source: kept.source, pin: kept.pin });
}

/**
 * Stop following the org: its kept file, the indexes it added and its advisory feeds are
 * removed. What was installed stays. The org left, or `undefined` when none was joined.
 */
export function leaveOrg(environment: Environment): KeptOrg | undefined {
  const { kept } = readKeptOrg(environment);
  if (kept === undefined) return undefined;
  for (const added of kept.addedSources) removeScopeSource(environment, "user", added);
  for (const feed of kept.org.advisories ?? [])
    rmSync(join(advisoriesDir(environment), `${ORG_FEED_PREFIX}${feed.name}.json`), {
      force: true,
    });
  rmSync(keptOrgPath(environment), { force: true });
  return kept;
}

/**
 * Before a change: an org past its ttl is fetched again; when it cannot be reached, the last copy
 * stays and `readPolicy` decides (`org_expired` refuses every change in an org that fails
 * closed, `org_stale` warns otherwise). What the attempt found, as warnings.
 */
export async function refreshExpiredOrg(
  environment: Environment,
  options: () => StageOptions,
): Promise<Diagnostic[]> {
  const { kept } = readKeptOrg(environment);
  if (kept === undefined || !orgAge(kept, Date.now()).expired) return [];
  try {
    return [...(await syncOrg({ environment, options: options() })).diagnostics];
  } catch (error) {
    if (!isSkillshelfError(error)) throw error;
    return [
      createDiagnostic(
        "warning",
        error.code,
        `the org ${kept.org.name} is past its ttl and could not be fetched again: ${error.message}`,
      ),
    ];
  }
}

/**
 * The sources team `team` installs from the org joined (its `channel`, `stable` by default):
 * `org_not_joined`, `org_team_unknown`, `org_channel_unknown`.
 */
export function teamSources(
  environment: Environment,
  team: string,
  channel: string = DEFAULT_CHANNEL,
): readonly string[] {
  const set = teamSet(joinedOrg(environment).org, team, channel);
  if ("problem" in set)
    throw new SkillshelfError(set.problem.code, set.problem.message, {
      details: set.problem.details,
    });
  return set.sources;
}

/**
 * The skills installed here (either scope) from the sources of team `team`'s set: what a profile
 * made from a team holds. `org_not_joined`, `org_team_unknown`, `org_channel_unknown`.
 */
export function teamSkills(
  environment: Environment,
  team: string,
  channel: string = DEFAULT_CHANNEL,
): readonly string[] {
  const ids = new Set(
    teamSources(environment, team, channel).flatMap((text) => {
      const parsed = parseSourceSpec(text, environment.cwd);
      if (!parsed.ok) return [];
      return (["user", "project"] as const).flatMap((scope) =>
        installedFrom(environment, scope, parsed.source),
      );
    }),
  );
  const { resources } = readInventory({
    environment,
    include: { packages: false, copies: false, resources: true },
  });
  return [
    ...new Set(
      resources
        .filter((one) => one.kind === "skill" && one.owner !== undefined && ids.has(one.owner.id))
        .map((one) => one.name),
    ),
  ].sort();
}

/** Record in `scope` the org joined and the team's set installed (`org.json` in its library). */
export function recordScopeOrg(
  environment: Environment,
  scope: PackageScope,
  team: { readonly name: string; readonly channel?: string | undefined },
): ScopeOrg {
  const kept = joinedOrg(environment);
  const recorded: ScopeOrg = {
    version: 1,
    org: kept.org.name,
    source: kept.source,
    pin: kept.pin,
    team: team.name,
    channel: team.channel ?? DEFAULT_CHANNEL,
  };
  writeJsonFile(scopeOrgPath(environment, scope), recorded);
  return recorded;
}

/**
 * Whether a restore of `scope` runs under the org it records: none recorded, or the same org
 * joined with the same pin. Otherwise the refusal: `org_not_joined` (with the command that
 * joins it), `org_mismatch`, or `org_invalid` for a record that does not read.
 */
export function orgRefusal(environment: Environment, scope: PackageScope): Diagnostic | undefined {
  const { recorded, problem } = readScopeOrg(environment, scope);
  if (problem !== undefined) return problem;
  if (recorded === undefined) return undefined;
  const { kept } = readKeptOrg(environment);
  const path = scopeOrgPath(environment, scope);
  const pinned =
    recorded.pin.signer !== undefined
      ? `--signer '${recorded.pin.signer}'`
      : `--digest ${recorded.pin.digest}`;
  if (kept === undefined)
    return createDiagnostic(
      "error",
      "org_not_joined",
      `this scope was installed under the org ${recorded.org}, which this machine has not joined`,
      {
        path,
        details: { org: recorded.org, source: recorded.source, pin: pinned },
      },
    );
  if (kept.source !== recorded.source || !samePin(kept.pin, recorded.pin))
    return createDiagnostic(
      "error",
      "org_mismatch",
      `this scope was installed under the org ${recorded.org} (${recorded.source}), pinned otherwise than the org joined here (${kept.source})`,
      { path, details: { org: recorded.org, source: recorded.source, joined: kept.source } },
    );
  return undefined;
}

/**
 * How `scope` differs from the team's set it records: the org not joined or pinned otherwise
 * (`orgRefusal`), and each source of the set no copy was installed from, or installed at another
 * ref, version or digest than the set pins (`team_drift`). Nothing when no team is recorded.
 */
export function teamDrift(
  environment: Environment,
  scope: PackageScope,
  cache?: ScopeCache,
): Diagnostic[] {
  const refused = orgRefusal(environment, scope);
  if (refused !== undefined) return [refused];
  const { recorded } = readScopeOrg(environment, scope);
  if (recorded?.team === undefined) return [];
  const path = scopeOrgPath(environment, scope);
  const set = teamSet(
    joinedOrg(environment).org,
    recorded.team,
    recorded.channel ?? DEFAULT_CHANNEL,
  );
  if ("problem" in set) return [{ ...set.problem, path }];
  const state = readScopeState(environment, scope, cache);
  const installed = state.ok ? state.value.state.installed : {};
  const drift: Diagnostic[] = [];
  for (const text of set.sources) {
    const parsed = parseSourceSpec(text, environment.cwd);
    const ids = parsed.ok ? installedFrom(environment, scope, parsed.source, cache) : [];
    const pinned = parsed.ok ? pinOf(parsed.source) : "";
    const why =
      ids.length === 0
        ? "no copy is installed from it"
        : ids.some((id) => pinOf(installed[id]?.origin.source) === pinned)
          ? undefined
          : `its copies (${ids.join(", ")}) are installed at another ref or version than it pins`;
    if (why !== undefined)
      drift.push(
        createDiagnostic(
          "error",
          "team_drift",
          `the ${recorded.team} team's ${recorded.channel ?? DEFAULT_CHANNEL} set lists ${text}; ${why}`,
          { path, details: { team: recorded.team, source: text, installed: ids } },
        ),
      );
  }
  return drift;
}

// --- internal ---

/**
 * The mirrors the org's own file is fetched through: every rewrite, but not the org's own
 * `mirror-only` (the member named the org's place and pinned its file; an org that refused
 * its own place could never be synced). A managed policy's `mirror-only` still holds.
 */
function ownMirrors(
  environment: Environment,
  mirrors: StageOptions["mirrors"],
): StageOptions["mirrors"] {
  if (mirrors?.only?.file !== keptOrgPath(environment)) return mirrors;
  return { rules: mirrors.rules };
}

/** What in a source pins its content (a ref, a version range, a digest), as one text. */
function pinOf(source: PackageSource | undefined): string {
  const fields = (source ?? {}) as Partial<Record<"ref" | "range" | "digest", unknown>>;
  return JSON.stringify([fields.ref, fields.range, fields.digest]);
}

function joinedOrg(environment: Environment): KeptOrg {
  const { kept, problem } = readKeptOrg(environment);
  if (problem !== undefined)
    throw new SkillshelfError("org_invalid", problem.message, { path: problem.path });
  if (kept === undefined)
    throw new SkillshelfError("org_not_joined", "this machine has joined no org");
  return kept;
}

/**
 * Add the org's indexes to the user's sources and fetch each; the URLs the org added (an index
 * the user had added before the org is theirs, and `org leave` keeps it).
 */
async function addOrgSources(
  environment: Environment,
  sources: { readonly texts: readonly string[]; readonly before: readonly string[] },
  options: StageOptions,
  diagnostics: Diagnostic[],
): Promise<string[]> {
  const added: string[] = [];
  for (const text of sources.texts) {
    try {
      const remote = parseRemoteIndex(text, environment.cwd);
      if (remote === undefined)
        throw new SkillshelfError("index_missing", `${text} is not an index Skillshelf can fetch`);
      if (addRemoteScopeSource(environment, "user", remote) || sources.before.includes(remote.url))
        added.push(remote.url);
      await fetchRemoteIndex(environment, remote, options);
    } catch (error) {
      if (!isSkillshelfError(error)) throw error;
      diagnostics.push(
        createDiagnostic("warning", error.code, `the org's index ${text}: ${error.message}`),
      );
    }
  }
  return added;
}

/** Follow each feed the org names as `org-<name>`, and stop following the ones it no longer names. */
async function followOrgFeeds(
  environment: Environment,
  feeds: NonNullable<KeptOrg["org"]["advisories"]>,
  options: StageOptions,
  diagnostics: Diagnostic[],
): Promise<void> {
  const dir = advisoriesDir(environment);
  const named = new Set(feeds.map((feed) => `${ORG_FEED_PREFIX}${feed.name}.json`));
  if (existsSync(dir))
    for (const file of readdirSync(dir))
      if (file.startsWith(ORG_FEED_PREFIX) && !named.has(file)) rmSync(join(dir, file));
  for (const feed of feeds) {
    try {
      await addAdvisoryFeed({
        environment,
        source: feed.source,
        name: `${ORG_FEED_PREFIX}${feed.name}`,
        signer: feed.signer,
        options,
      });
    } catch (error) {
      if (!isSkillshelfError(error)) throw error;
      diagnostics.push(
        createDiagnostic(
          "warning",
          error.code,
          `the org's advisory feed ${feed.name} (${feed.source}): ${error.message}`,
        ),
      );
    }
  }
}
