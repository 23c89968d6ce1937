import {
  createProfile,
  markOptional,
  optionalLeftOut,
  type ProfileAgent,
  profileFit,
  profileInUse,
  readProfiles,
  settleOptional,
  teamSkills,
  useProfile,
} from "@skillshelf/lifecycle";
import type { CommandInput } from "../command.js";
import { scopeValue } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { formatDiagnostics, painter, plural, safeLine } from "../format.js";
import type { CliIo } from "../io.js";
import { UsageError } from "../usage-error.js";
import { agentsOption } from "./_agents.js";
import { printWrites } from "./_switch-writes.js";

type ProfileValues = {
  readonly json: boolean;
  readonly user: boolean;
  readonly project: boolean;
  readonly skill?: readonly string[];
  readonly team: string | undefined;
  readonly channel: string | undefined;
  readonly agent?: readonly string[];
  readonly remove?: boolean;
};

const ACTIONS = ["list", "create", "show", "use", "optional"] as const;

/**
 * `profile create NAME --skill a,b`, `profile list`, `profile show NAME`, `profile use NAME
 * [--agent …]`, `profile optional --skill a,b [--remove]`. `use` exits 1 when an agent's listing
 * budget would cut a skill the profile names.
 */
export async function runProfile(input: CommandInput<ProfileValues>): Promise<number> {
  const { io, values } = input;
  const [action = "list", name] = input.positionals;
  if (!(ACTIONS as readonly string[]).includes(action))
    throw new UsageError(
      "usage_invalid_value",
      `${JSON.stringify(action)} is not an action of skillshelf profile; use list, create NAME, show NAME, use NAME or optional`,
    );
  const context = input.context();
  const { environment } = context;
  const paint = painter(io.color);
  const skillsNamed = (values.skill ?? [])
    .flatMap((list) => list.split(","))
    .filter((one) => one !== "");
  if (action === "optional") {
    if (skillsNamed.length === 0)
      throw new UsageError("usage_missing_argument", "profile optional needs --skill a,b");
    const optional = markOptional({
      environment,
      skills: skillsNamed,
      optional: values.remove !== true,
    });
    // this contributor's own switches follow at once (each teammate's at their next install)
    const { writes, diagnostics } = await settleOptional(
      environment,
      values.remove === true ? skillsNamed : [],
    );
    const leftOut = optionalLeftOut(environment);
    if (values.json)
      printJson(io, context, {
        ok: true,
        optional,
        leftOut,
        writes,
        diagnostics: diagnostics.map(publicDiagnostic),
      });
    else {
      io.stdout(
        optional.length === 0
          ? "no skill of this project is optional\n"
          : `optional here: ${optional.map(safeLine).join(", ")}; reaching none of your agents: ${leftOut.length === 0 ? "none" : leftOut.map(safeLine).join(", ")}\n`,
      );
      printWrites(io, context.style, writes);
      io.stderr(formatDiagnostics(diagnostics, context.style, paint));
    }
    return 0;
  }
  if (action === "list") {
    const { profiles, diagnostics } = readProfiles(environment);
    const using = profileInUse(environment);
    if (values.json)
      printJson(io, context, {
        profiles,
        using: using ?? null,
        diagnostics: diagnostics.map(publicDiagnostic),
      });
    else {
      if (profiles.length === 0)
        io.stdout("no profiles (skillshelf profile create NAME --skill a,b)\n");
      for (const profile of profiles)
        io.stdout(
          `${profile.name === using ? "* " : "  "}${safeLine(profile.name)} (${profile.scope}): ${profile.skills.map(safeLine).join(", ")}\n`,
        );
      io.stderr(formatDiagnostics(diagnostics, context.style, paint));
    }
    return diagnostics.length === 0 ? 0 : 1;
  }
  if (name === undefined)
    throw new UsageError("usage_missing_argument", `profile ${action} needs the profile's name`);
  if (action === "create") {
    const named = skillsNamed;
    if ((named.length === 0) === (values.team === undefined))
      throw new UsageError(
        "usage_missing_argument",
        "profile create needs --skill a,b or --team NAME (the skills installed from that team's set)",
      );
    const skills =
      values.team === undefined ? named : teamSkills(environment, values.team, values.channel);
    const profile = createProfile({
      environment,
      scope: scopeValue(input, "project"),
      name,
      skills,
    });
    if (values.json) printJson(io, context, { ok: true, profile });
    else
      io.stdout(
        `profile ${safeLine(profile.name)} (${profile.scope}): ${plural(profile.skills.length, "skill")}\n`,
      );
    return 0;
  }
  const agents = agentsOption(input, "profile");
  const named = agents === "all" ? undefined : agents;
  if (action === "show") {
    const fit = profileFit(environment, name, named);
    if (values.json) printJson(io, context, { ...fit, ok: fit.agents.every(fits) });
    else {
      io.stdout(
        `${safeLine(fit.profile.name)} (${fit.profile.scope}): ${fit.profile.skills.map(safeLine).join(", ")}\n`,
      );
      printAgents(io, fit.agents);
    }
    return fit.agents.every(fits) ? 0 : 1;
  }
  const used = await useProfile({ environment, name, agents: named });
  const ok = used.agents.every(fits);
  if (values.json) {
    printJson(io, context, {
      ok,
      profile: used.profile,
      agents: used.agents,
      diagnostics: used.diagnostics.map(publicDiagnostic),
    });
    return ok ? 0 : 1;
  }
  io.stdout(`using ${safeLine(used.profile.name)} here\n`);
  printWrites(
    io,
    context.style,
    used.agents.flatMap((agent) => agent.write ?? []),
  );
  for (const { agent, links } of used.agents)
    if (links !== undefined && links.unlinked.length + links.relinked.length > 0)
      io.stdout(
        `  ${agent}: ${plural(links.unlinked.length, "link")} taken away, ${plural(links.relinked.length, "link")} made again\n`,
      );
  printAgents(io, used.agents);
  io.stderr(formatDiagnostics(used.diagnostics, context.style, paint));
  return ok ? 0 : 1;
}

// --- internal ---

/** Whether an agent's budget keeps every skill of the profile whole. */
function fits(agent: ProfileAgent): boolean {
  return agent.budget === undefined || agent.budget.fits;
}

function printAgents(io: CliIo, agents: readonly ProfileAgent[]): void {
  for (const agent of agents) {
    const budget = agent.budget;
    const said =
      budget === undefined
        ? "budget not documented"
        : budget.fits
          ? `fits its budget (${budget.needed} of ${budget.rule.chars} characters)`
          : `over its budget (${budget.needed} of ${budget.rule.chars} characters): ${[
              ...(budget.shortened.length === 0
                ? []
                : [`${plural(budget.shortened.length, "description")} shortened`]),
              ...(budget.dropped.length === 0 ? [] : [`drops ${budget.dropped.join(", ")}`]),
            ].join("; ")}`;
    io.stdout(
      `  ${agent.agent}: ${said}${agent.missing.length === 0 ? "" : `; does not see ${agent.missing.map(safeLine).join(", ")}`}\n`,
    );
  }
}
