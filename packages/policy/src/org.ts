// The organisation's file (`org.yaml`), as data: its schema, the copy this machine keeps, how old
// that copy is, the policy layer it adds and each team's skill sets. Fetching and keeping it is
// `lifecycle`'s (`org join`, `org sync`).
import { lstatSync } from "node:fs";
import { join } from "node:path";
import {
  createDiagnostic,
  type Diagnostic,
  decodeText,
  type Environment,
  type HintedDiagnostic,
  type PackageScope,
  parseJson,
  parseYamlMapping,
  readRegularFile,
  schemaDiagnostics,
  scopeLibraryDir,
  sshKeyFingerprint,
} from "@skillshelf/core";
import * as z from "zod/mini";
import { mirrorRuleSchema, orgPolicySchema } from "./_schemas.js";
import type { OrgPolicyRules, PolicyRules } from "./rules.js";

/** The file an org channel publishes at the top of its source (its signature beside it, `.sig`). */
export const ORG_FILE = "org.yaml";

/** The channel a team's set is read from when none is named. */
export const DEFAULT_CHANNEL = "stable";

/** How long a kept org file is in force when the org sets no `ttl`. */
export const DEFAULT_ORG_TTL = "24h";

/** A team's skill sets: one list (its `stable` channel), or one list per channel. */
export type TeamSets = readonly string[] | Readonly<Record<string, readonly string[]>>;

/** An organisation's `org.yaml` (docs/org.md): every key but `version` and `name` optional, none unknown. */
export interface OrgFile {
  readonly version: 1;
  readonly name: string;
  /** How long a copy fetched is in force: `30m`, `12h`, `7d` (default `24h`). */
  readonly ttl?: string | undefined;
  /** Once the copy is past its ttl and the org cannot be reached: refuse every change. */
  readonly "fail-closed"?: boolean | undefined;
  /** Indexes every member searches and installs from (what `skillshelf sources add` takes). */
  readonly sources?: readonly string[] | undefined;
  readonly mirrors?: PolicyRules["mirrors"];
  readonly "mirror-only"?: boolean | undefined;
  /** A policy layer at the managed file's strength: a user's or a project's policy only tightens it. */
  readonly policy?: OrgPolicyRules | undefined;
  /** Advisory feeds every member follows. */
  readonly advisories?:
    | readonly {
        readonly name: string;
        readonly source: string;
        readonly signer?: string | undefined;
      }[]
    | undefined;
  /** Each team's skill sets: what `install --team` installs (sources as `install` takes them). */
  readonly teams?: Readonly<Record<string, TeamSets>> | undefined;
}

/** The org file read from `text`, or every problem with it (`key_unknown`, `key_missing`, `field_invalid`, …). */
export function parseOrgFile(
  text: string,
  path: string,
):
  | { readonly ok: true; readonly org: OrgFile }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] } {
  const parsed = parseYamlMapping(text, { fastPath: false });
  if (!parsed.ok)
    return {
      ok: false,
      diagnostics: [
        createDiagnostic(
          "error",
          "org_invalid",
          `${path} is not a YAML mapping: ${parsed.message}`,
          {
            path,
            ...(parsed.line === undefined ? {} : { line: parsed.line }),
          },
        ),
      ],
    };
  return orgOf(parsed.value, path);
}

/** How long `ttl` (`30m`, `12h`, `7d`) is in milliseconds, or `undefined` when it is not a duration. */
function ttlMs(ttl: string): number | undefined {
  const match = /^([1-9][0-9]{0,5})([mhd])$/.exec(ttl);
  if (match === null) return undefined;
  return Number(match[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as "m" | "h" | "d"];
}

/** How a member pinned the org when joining: the signer's key accepted, or the file's digest. */
export type OrgPin =
  | { readonly signer: string; readonly digest?: undefined }
  | { readonly digest: string; readonly signer?: undefined };

/** The org file as this machine keeps it (`org/org.json` in the user library). */
export interface KeptOrg {
  readonly source: string;
  readonly pin: OrgPin;
  /** When it was last fetched (RFC 3339). */
  readonly fetchedAt: string;
  /** The sha256 of the file's bytes, as fetched. */
  readonly digest: string;
  readonly org: OrgFile;
  /** The indexes `org join` added to the user's sources (taken back by `org leave`). */
  readonly addedSources: readonly string[];
}

/** Where this machine keeps its org: `org/org.json` in the user library. */
export function keptOrgPath(environment: Environment): string {
  return join(environment.configDir, "org", "org.json");
}

/** The org kept here, none, or a diagnostic when the file is not one Skillshelf kept (`org_invalid`). */
export function readKeptOrg(environment: Environment): {
  readonly kept?: KeptOrg | undefined;
  readonly problem?: HintedDiagnostic | undefined;
} {
  const path = keptOrgPath(environment);
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return {};
  const invalid = {
    problem: createDiagnostic("error", "org_invalid", `${path} is not an org Skillshelf kept`, {
      path,
    }),
  };
  const value = readJsonFile(path) as Partial<KeptOrg> | undefined;
  const pin = value?.pin as Partial<Record<"signer" | "digest", unknown>> | undefined;
  const org = value === undefined ? undefined : orgOf(value.org, path);
  if (
    typeof value?.source !== "string" ||
    typeof value.fetchedAt !== "string" ||
    typeof value.digest !== "string" ||
    !(typeof pin?.signer === "string" || typeof pin?.digest === "string") ||
    !Array.isArray(value.addedSources) ||
    org?.ok !== true
  )
    return invalid;
  return { kept: { ...(value as KeptOrg), org: org.org } };
}

/** How old the kept org is, the ttl it set, and whether it is past it at `now`. */
export function orgAge(
  kept: KeptOrg,
  now: number,
): { readonly ageMs: number; readonly ttlMs: number; readonly expired: boolean } {
  const ttl = ttlMs(kept.org.ttl ?? DEFAULT_ORG_TTL) ?? 0;
  const ageMs = Math.max(0, now - Date.parse(kept.fetchedAt));
  return { ageMs, ttlMs: ttl, expired: !(ageMs <= ttl) };
}

/**
 * The kept org as a policy layer, ranked below the managed file and above the user's: its
 * `policy`, mirrors and `mirror-only`. Past its ttl it still holds; a `fail-closed` org then
 * refuses every change (`org_expired`), another one warns (`org_stale`).
 */
export function orgPolicyLayer(
  environment: Environment,
  now: number,
): {
  readonly file?: { readonly path: string; readonly rules: PolicyRules } | undefined;
  readonly diagnostic?: HintedDiagnostic | undefined;
  readonly invalid?: HintedDiagnostic | undefined;
} {
  const { kept, problem } = readKeptOrg(environment);
  if (problem !== undefined) return { invalid: problem };
  if (kept === undefined) return {};
  const { org } = kept;
  const path = keptOrgPath(environment);
  const rules: PolicyRules = {
    ...org.policy,
    ...(org.mirrors === undefined ? {} : { mirrors: org.mirrors }),
    ...(org["mirror-only"] === undefined ? {} : { "mirror-only": org["mirror-only"] }),
  };
  const age = orgAge(kept, now);
  if (!age.expired) return { file: { path, rules } };
  const closed = org["fail-closed"] === true;
  const stale = createDiagnostic(
    closed ? "error" : "warning",
    closed ? "org_expired" : "org_stale",
    `the org ${org.name} was fetched ${kept.fetchedAt}, past its ttl of ${org.ttl ?? DEFAULT_ORG_TTL}${closed ? ", and it fails closed: every change is refused" : "; its last copy stays in force"}`,
    {
      path,
      details: { org: org.name, source: kept.source, fetchedAt: kept.fetchedAt },
    },
  );
  return { file: { path, rules }, ...(closed ? { invalid: stale } : { diagnostic: stale }) };
}

/**
 * The sources team `team`'s `channel` installs, or why there are none: `org_team_unknown`
 * (naming the teams there are) or `org_channel_unknown` (naming its channels).
 */
export function teamSet(
  org: OrgFile,
  team: string,
  channel: string,
): { readonly sources: readonly string[] } | { readonly problem: Diagnostic } {
  const sets = Object.hasOwn(org.teams ?? {}, team) ? org.teams?.[team] : undefined;
  if (sets === undefined) {
    const teams = Object.keys(org.teams ?? {});
    return {
      problem: createDiagnostic(
        "error",
        "org_team_unknown",
        `the org ${org.name} has no team ${team}${teams.length === 0 ? "" : `; its teams: ${teams.join(", ")}`}`,
        { details: { team, teams } },
      ),
    };
  }
  const channels: Readonly<Record<string, readonly string[]>> = isList(sets)
    ? { [DEFAULT_CHANNEL]: sets }
    : sets;
  const sources = Object.hasOwn(channels, channel) ? channels[channel] : undefined;
  if (sources === undefined)
    return {
      problem: createDiagnostic(
        "error",
        "org_channel_unknown",
        `the team ${team} of the org ${org.name} has no channel ${channel}; its channels: ${Object.keys(channels).join(", ")}`,
        { details: { team, channel, channels: Object.keys(channels) } },
      ),
    };
  return { sources };
}

/**
 * What a scope records of the org it was installed under (`org.json` in the scope's library,
 * committed with a project's lock): where the org is, how it was pinned, and the team's set
 * `install --team` installed. A teammate's restore checks the org joined is this one.
 */
export interface ScopeOrg {
  readonly version: 1;
  readonly org: string;
  readonly source: string;
  readonly pin: OrgPin;
  readonly team?: string | undefined;
  readonly channel?: string | undefined;
}

/** Where `scope` records its org: `org.json` in its library. */
export function scopeOrgPath(environment: Environment, scope: PackageScope): string {
  return join(scopeLibraryDir(environment, scope), "org.json");
}

/** The org `scope` records, none, or `org_invalid` when the file is not one. */
export function readScopeOrg(
  environment: Environment,
  scope: PackageScope,
): { readonly recorded?: ScopeOrg | undefined; readonly problem?: HintedDiagnostic | undefined } {
  const path = scopeOrgPath(environment, scope);
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return {};
  const value = readJsonFile(path) as Partial<ScopeOrg> | undefined;
  const pin = value?.pin as Partial<Record<"signer" | "digest", unknown>> | undefined;
  if (
    value?.version !== 1 ||
    typeof value.org !== "string" ||
    typeof value.source !== "string" ||
    !(typeof pin?.signer === "string" || typeof pin?.digest === "string") ||
    !(value.team === undefined || typeof value.team === "string") ||
    !(value.channel === undefined || typeof value.channel === "string")
  )
    return {
      problem: createDiagnostic("error", "org_invalid", `${path} is not an org record`, { path }),
    };
  return { recorded: value as ScopeOrg };
}

/** Whether two pins accept the same file: the same signer key, or the same digest. */
export function samePin(a: OrgPin, b: OrgPin): boolean {
  return a.signer !== undefined
    ? b.signer !== undefined && sshKeyFingerprint(a.signer) === sshKeyFingerprint(b.signer)
    : a.digest === b.digest;
}

// --- internal ---

/** A small JSON file Skillshelf wrote, read without following a link; `undefined` when it does not read. */
function readJsonFile(path: string): unknown {
  try {
    const decoded = decodeText(readRegularFile(path, MAX_KEPT_BYTES, { noFollow: true }));
    if (!decoded.ok) return undefined;
    const parsed = parseJson(decoded.text);
    return parsed.ok ? parsed.value : undefined;
  } catch {
    return undefined;
  }
}

const MAX_KEPT_BYTES = 4 * 1024 * 1024;

function isList(sets: TeamSets): sets is readonly string[] {
  return Array.isArray(sets);
}

/** The org file's schema, built when an org file is first read. */
function orgSchemaOf(): z.ZodMiniType<OrgFile> {
  const name = z.string().check(z.regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, "must be a lowercase name"));
  const list = z.array(z.string().check(z.minLength(1)));
  return z.strictObject({
    version: z.literal(1),
    name,
    ttl: z.optional(
      z.string().check(z.refine((ttl) => ttlMs(ttl) !== undefined, "must be as 30m, 12h or 7d")),
    ),
    "fail-closed": z.optional(z.boolean()),
    sources: z.optional(list),
    mirrors: z.optional(z.array(mirrorRuleSchema())),
    "mirror-only": z.optional(z.boolean()),
    policy: z.optional(orgPolicySchema()),
    advisories: z.optional(
      z.array(
        z.strictObject({
          name: z.string().check(z.regex(/^[a-z0-9][a-z0-9-]{0,50}$/, "must be a lowercase name")),
          source: z.string().check(z.minLength(1)),
          signer: z.optional(z.string().check(z.minLength(1))),
        }),
      ),
    ),
    teams: z.optional(z.record(name, z.union([list, z.record(name, list)]))),
  });
}

const orgSchema = z.lazy(orgSchemaOf);

function orgOf(
  value: unknown,
  path: string,
):
  | { readonly ok: true; readonly org: OrgFile }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] } {
  const checked = orgSchema.safeParse(value);
  if (checked.success) return { ok: true, org: checked.data };
  return {
    ok: false,
    diagnostics: schemaDiagnostics(checked.error.issues, value, path, "the org file"),
  };
}
