import { adoptRequests, changeScope, findUnadopted } from "@skillshelf/lifecycle";
import type { CommandInput } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, painter, plural, safeLine } from "../format.js";
import { agentsOption } from "./_agents.js";
import { runChanges } from "./_changes.js";
import { scopeAsked } from "./_scope.js";
import type { ChangeValues } from "./change.js";

/**
 * `adopt`: the skills in agents' folders of the scope that nothing installed accounts for
 * (copied by hand or by another tool), each installed as a package from where it lies and
 * recorded as that agent's copy of it, in one reviewed plan per agent folder; `verify` then
 * covers them. The folders' bytes are not touched.
 */
export async function runAdopt(input: CommandInput<ChangeValues>): Promise<number> {
  const { io, values } = input;
  const context = input.context();
  const { environment } = context;
  const scope = changeScope(environment, scopeAsked(input), false) ?? "user";
  const agents = agentsOption(input, "adopt");
  const { found, skipped } = findUnadopted(
    environment,
    scope,
    agents === "all" ? undefined : agents,
  );
  const head = {
    scope,
    found,
    skipped: skipped.map((diagnostic) => ({
      ...publicDiagnostic(diagnostic),
      reason: diagnostic.details?.reason,
    })),
  };
  if (!values.json) {
    const paint = painter(io.color);
    for (const diagnostic of skipped)
      io.stderr(`${formatDiagnostic(diagnostic, context.style, paint)}\n`);
    io.stdout(
      found.length === 0
        ? `nothing to adopt in the ${scope} scope's agent folders\n`
        : `${plural(found.length, "skill")} in the ${scope} scope's agent folders that nothing installed accounts for:\n${found
            .map(
              (skill) => `  ${safeLine(skill.name)}  ${displayPath(skill.path, context.style)}\n`,
            )
            .join("")}`,
    );
  }
  // a scope state that does not read: nothing was looked at
  if (skipped.some((diagnostic) => diagnostic.severity === "error")) {
    if (values.json) printJson(io, context, { ...head, changes: [] });
    return 1;
  }
  const scoped = { user: scope === "user", project: scope === "project" };
  return runChanges(
    input,
    head,
    adoptRequests(found).map((request) => ({
      command: request.command,
      positionals: request.targets,
      values: { ...scoped, agent: [request.agent], copy: true, bare: true },
    })),
  );
}
