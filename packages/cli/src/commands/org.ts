import { type Diagnostic, sshKeyFingerprint } from "@skillshelf/core";
import {
  changeStageOptions,
  type JoinedOrg,
  joinOrg,
  leaveOrg,
  syncOrg,
} from "@skillshelf/lifecycle";
import {
  DEFAULT_ORG_TTL,
  type KeptOrg,
  type OrgPin,
  orgAge,
  readKeptOrg,
  readScopeOrg,
} from "@skillshelf/policy";
import { defaultScope, PACKAGE_SCOPES } from "@skillshelf/store";
import type { CommandInput } from "../command.js";
import { type CommandContext, printJson, publicDiagnostic } from "../context.js";
import { formatDiagnostics, painter, plural, safeLine } from "../format.js";
import { UsageError } from "../usage-error.js";
import { signerKey } from "./_signer.js";

type OrgValues = {
  readonly json: boolean;
  readonly signer: string | undefined;
  readonly digest: string | undefined;
};

const ACTIONS = ["join", "sync", "status", "leave"] as const;

/**
 * `org join <source> --signer KEY | --digest sha256:…`: follow an org's channel; `org sync`:
 * fetch it again; `org status` (or nothing): what is in force and how old; `org leave`.
 */
export async function runOrg(input: CommandInput<OrgValues>): Promise<number> {
  const { io, values } = input;
  const [action = "status", source] = input.positionals;
  if (!(ACTIONS as readonly string[]).includes(action))
    throw new UsageError(
      "usage_invalid_value",
      `${JSON.stringify(action)} is not an action of skillshelf org; use join <source>, sync, status or leave`,
    );
  if (action !== "join" && source !== undefined)
    throw new UsageError("usage_extra_argument", `org ${action} takes no source`);
  if (action !== "join" && (values.signer !== undefined || values.digest !== undefined))
    throw new UsageError("usage_invalid_value", "--signer and --digest apply to org join");
  const context = input.context();
  const { environment } = context;
  if (action === "status") return printStatus(input, context);
  if (action === "leave") {
    const left = leaveOrg(environment);
    if (values.json) printJson(io, context, { ok: true, left: left?.org.name ?? null });
    else
      io.stdout(
        left === undefined
          ? "this machine follows no org\n"
          : `left the org ${safeLine(left.org.name)}: its policy, mirrors, indexes and advisory feeds no longer apply; what was installed stays\n`,
      );
    return 0;
  }
  const options = changeStageOptions(environment, defaultScope(environment), {
    texts: [],
    allowMcpCommand: false,
  });
  const joined =
    action === "sync"
      ? await syncOrg({ environment, options })
      : await joinOrg({
          environment,
          source: requiredSource(source),
          pin: pinOf(values, environment.cwd),
          options,
        });
  return printJoined(input, context, joined, action === "sync" ? "synced" : "joined");
}

// --- internal ---

function requiredSource(source: string | undefined): string {
  if (source === undefined)
    throw new UsageError(
      "usage_missing_argument",
      "org join needs the org's source: a git repository, an OCI artifact, an https URL or a folder",
    );
  return source;
}

/** The pin `org join` takes: one of `--signer` (a key line or a .pub file) and `--digest`. */
function pinOf(values: OrgValues, cwd: string): OrgPin {
  const { signer, digest } = values;
  if ((signer === undefined) === (digest === undefined))
    throw new UsageError(
      "usage_missing_argument",
      "org join needs how to trust the org's file: --signer KEY (the org's SSH public key) or --digest sha256:<hex>",
    );
  if (signer !== undefined) return { signer: signerKey(signer, cwd) };
  const hex = (digest ?? "").replace(/^sha256:/, "");
  if (!/^[0-9a-f]{64}$/.test(hex))
    throw new UsageError("usage_invalid_value", "--digest takes sha256:<64 hex>");
  return { digest: `sha256:${hex}` };
}

function printJoined(
  input: CommandInput<OrgValues>,
  context: CommandContext,
  joined: JoinedOrg,
  done: "joined" | "synced",
): number {
  const { io } = input;
  const { kept, diagnostics } = joined;
  if (input.values.json) {
    printJson(io, context, {
      ok: true,
      org: orgSummary(kept),
      diagnostics: diagnostics.map(publicDiagnostic),
    });
    return 0;
  }
  const { org } = kept;
  io.stdout(
    `${done} the org ${safeLine(org.name)} from ${safeLine(kept.source)} (${pinText(kept.pin)}): ${inForce(kept)}\n`,
  );
  io.stderr(formatDiagnostics(diagnostics, context.style, painter(io.color)));
  return 0;
}

function printStatus(input: CommandInput<OrgValues>, context: CommandContext): number {
  const { io } = input;
  const { environment } = context;
  const { kept, problem } = readKeptOrg(environment);
  const now = Date.now();
  const scopes = PACKAGE_SCOPES.flatMap((scope) => {
    const read = readScopeOrg(environment, scope);
    return read.recorded === undefined ? [] : [{ scope, ...read.recorded }];
  });
  const problems: Diagnostic[] = problem === undefined ? [] : [problem];
  if (input.values.json) {
    printJson(io, context, {
      ok: problem === undefined,
      org: kept === undefined ? null : { ...orgSummary(kept), ...orgAge(kept, now) },
      scopes,
      diagnostics: problems.map(publicDiagnostic),
    });
    return problem === undefined ? 0 : 1;
  }
  if (kept === undefined) io.stdout("this machine follows no org (skillshelf org join <source>)\n");
  else {
    const { org } = kept;
    const age = orgAge(kept, now);
    io.stdout(
      `org ${safeLine(org.name)} from ${safeLine(kept.source)} (${pinText(kept.pin)})\n` +
        `fetched ${kept.fetchedAt}, ${duration(age.ageMs)} ago; ttl ${org.ttl ?? DEFAULT_ORG_TTL}${age.expired ? ` — past it, ${org["fail-closed"] === true ? "failing closed: every change is refused" : "its last copy holds"} until skillshelf org sync` : ""}\n` +
        `in force: ${inForce(kept)}\n`,
    );
    for (const [team, sets] of Object.entries(org.teams ?? {}))
      io.stdout(
        `team ${safeLine(team)}: ${
          Array.isArray(sets)
            ? `stable (${sets.length})`
            : Object.entries(sets)
                .map(([channel, list]) => `${channel} (${list.length})`)
                .join(", ")
        }\n`,
      );
  }
  for (const recorded of scopes)
    io.stdout(
      `${recorded.scope} scope: installed under ${safeLine(recorded.org)}${recorded.team === undefined ? "" : `, team ${safeLine(recorded.team)} (${recorded.channel})`}\n`,
    );
  io.stderr(formatDiagnostics(problems, context.style, painter(io.color)));
  return problem === undefined ? 0 : 1;
}

/** The org as `--json` shows it: where from, how pinned, when, and what it sets. */
function orgSummary(kept: KeptOrg) {
  const { org, ...rest } = kept;
  return {
    ...rest,
    name: org.name,
    ttl: org.ttl ?? DEFAULT_ORG_TTL,
    failClosed: org["fail-closed"] === true,
    policy: org.policy ?? {},
    mirrors: org.mirrors ?? [],
    mirrorOnly: org["mirror-only"] === true,
    sources: org.sources ?? [],
    advisories: (org.advisories ?? []).map((feed) => feed.name),
    teams: Object.keys(org.teams ?? {}),
  };
}

function inForce(kept: KeptOrg): string {
  const { org } = kept;
  return [
    plural(Object.keys(org.policy ?? {}).length, "policy rule"),
    plural(org.mirrors?.length ?? 0, "mirror"),
    ...(org["mirror-only"] === true ? ["mirror-only"] : []),
    plural(org.sources?.length ?? 0, "index", "indexes"),
    plural(org.advisories?.length ?? 0, "advisory feed"),
    plural(Object.keys(org.teams ?? {}).length, "team"),
  ].join(", ");
}

function pinText(pin: OrgPin): string {
  return pin.signer !== undefined
    ? `signed by ${sshKeyFingerprint(pin.signer)}`
    : `pinned to ${pin.digest}`;
}

function duration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours}h` : `${Math.floor(hours / 24)}d`;
}
