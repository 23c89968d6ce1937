import { pathToFileURL } from "node:url";
import {
  addAdvisoryFeed,
  changeStageOptions,
  checkAdvisories,
  type RevokedCopy,
} from "@skillshelf/lifecycle";
import { type KeptFeed, readAdvisories } from "@skillshelf/policy";
import { defaultScope } from "@skillshelf/store";
import { VERSION } from "../_version.js";
import type { CommandInput } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, painter, plural, safeLine } from "../format.js";
import { UsageError } from "../usage-error.js";
import { signerKey } from "./_signer.js";

type AdvisoriesValues = {
  readonly json: boolean;
  readonly sarif: boolean;
  readonly name: string | undefined;
  readonly signer: string | undefined;
};

/**
 * `advisories add <source>`: follow a feed (fetched, checked, kept for offline checks);
 * `advisories check`: every installed copy a feed kept here revokes (exit 1 when any);
 * `advisories`: the feeds followed.
 */
export async function runAdvisories(input: CommandInput<AdvisoriesValues>): Promise<number> {
  const { io, values } = input;
  const context = input.context();
  const { environment } = context;
  const [action, source] = input.positionals;
  const paint = painter(io.color);
  if (action === "add") {
    if (source === undefined)
      throw new UsageError("usage_missing_argument", "advisories add needs the feed's source");
    if (values.name?.startsWith("org-") === true)
      throw new UsageError(
        "usage_invalid_value",
        "feed names starting with org- are the org channel's (skillshelf org sync replaces them); pick another --name",
      );
    const kept = await addAdvisoryFeed({
      environment,
      source,
      name: values.name ?? "default",
      signer: values.signer === undefined ? undefined : signerKey(values.signer, environment.cwd),
      options: changeStageOptions(environment, defaultScope(environment), {
        texts: [],
        allowMcpCommand: false,
      }),
    });
    if (values.json) printJson(io, context, { ok: true, feed: feedSummary(kept) });
    else
      io.stdout(
        `following ${safeLine(kept.name)}: ${plural(kept.feed.advisories.length, "advisory", "advisories")} from ${safeLine(kept.source)}${kept.signer === undefined ? "" : `, signed by ${kept.signer}`}\n`,
      );
    return 0;
  }
  if (action === "check") {
    const checked = checkAdvisories(environment);
    if (values.sarif) {
      io.stdout(`${await revokedSarif(checked.revoked)}\n`);
      return checked.revoked.length === 0 ? 0 : 1;
    }
    if (values.json) {
      printJson(io, context, {
        ok: checked.revoked.length === 0,
        feeds: checked.feeds.map(feedSummary),
        revoked: checked.revoked,
        diagnostics: checked.diagnostics.map(publicDiagnostic),
      });
      return checked.revoked.length === 0 ? 0 : 1;
    }
    if (checked.feeds.length === 0)
      io.stdout("no advisory feed is followed (skillshelf advisories add <source>)\n");
    for (const copy of checked.revoked)
      io.stdout(
        `${copy.id} (${copy.scope}) revoked by ${safeLine(copy.advisory.id)}, ${copy.advisory.severity}: ${safeLine(copy.advisory.summary)}\n    ${displayPath(copy.dir, context.style)}\n`,
      );
    if (checked.feeds.length > 0 && checked.revoked.length === 0)
      io.stdout(`no installed copy is revoked by ${plural(checked.feeds.length, "feed")}\n`);
    for (const diagnostic of checked.diagnostics)
      io.stderr(formatDiagnostic(diagnostic, context.style, paint));
    return checked.revoked.length === 0 ? 0 : 1;
  }
  if (action !== undefined)
    throw new UsageError(
      "usage_invalid_value",
      `${action}: write advisories add <source>, advisories check, or nothing`,
    );
  const { feeds, diagnostics } = readAdvisories(environment);
  if (values.json) {
    printJson(io, context, {
      feeds: feeds.map(feedSummary),
      diagnostics: diagnostics.map(publicDiagnostic),
    });
    return 0;
  }
  if (feeds.length === 0)
    io.stdout("no advisory feed is followed (skillshelf advisories add <source>)\n");
  for (const feed of feeds)
    io.stdout(
      `${safeLine(feed.name)}  ${safeLine(feed.source)}  ${plural(feed.feed.advisories.length, "advisory", "advisories")}, fetched ${feed.fetchedAt}\n`,
    );
  for (const diagnostic of diagnostics)
    io.stderr(formatDiagnostic(diagnostic, context.style, paint));
  return 0;
}

// --- internal ---

/** A feed followed, as `--json` shows it: where from, when, who signed it, how many advisories. */
function feedSummary(kept: KeptFeed) {
  const { feed, ...rest } = kept;
  return { ...rest, advisories: feed.advisories.length };
}

/** The revoked copies as a SARIF 2.1.0 log: one result per copy, its rule the advisory's id. */
async function revokedSarif(revoked: readonly RevokedCopy[]): Promise<string> {
  const { SarifBuilder, SarifResultBuilder, SarifRuleBuilder, SarifRunBuilder } = await import(
    "node-sarif-builder"
  );
  const run = new SarifRunBuilder().initSimple({
    toolDriverName: "skillshelf-advisories",
    toolDriverVersion: VERSION,
  });
  const rules = new Map(revoked.map((copy) => [copy.advisory.id, copy.advisory]));
  for (const advisory of rules.values())
    run.addRule(
      new SarifRuleBuilder().initSimple({
        ruleId: advisory.id,
        shortDescriptionText: advisory.summary,
      }),
    );
  for (const copy of revoked) {
    const result = new SarifResultBuilder().initSimple({
      ruleId: copy.advisory.id,
      level:
        copy.advisory.severity === "low"
          ? "note"
          : copy.advisory.severity === "medium"
            ? "warning"
            : "error",
      messageText: `${copy.id} (${copy.scope} scope, from ${copy.source}) is revoked: ${copy.advisory.summary}`,
    });
    result.setLocationArtifactUri({ uri: pathToFileURL(copy.dir).href });
    run.addResult(result);
  }
  const log = new SarifBuilder();
  log.addRun(run);
  return log.buildSarifJsonString({ indent: true });
}
