import { describeDestination, publish } from "@skillshelf/publish";
import type { CommandInput } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, painter, safeLine } from "../format.js";

/**
 * Validate a skill, a collection or a package strictly and publish it: what it writes (or, with
 * `--dry-run`, would write) is listed with each digest. Exit 1 when validation refused it.
 */
export async function runPublish(
  input: CommandInput<{
    readonly json: boolean;
    readonly "dry-run": boolean;
    readonly sign: string | undefined;
    readonly index: string | undefined;
  }>,
): Promise<number> {
  const { io } = input;
  const [folder = "", destination = ""] = input.positionals;
  const context = input.context();
  const { environment, style } = context;
  const result = await publish({
    folder,
    destination,
    dryRun: input.values["dry-run"],
    sign: input.values.sign,
    index: input.values.index,
    environment,
  });
  const refused = !result.dryRun && !result.published;
  const where = describeDestination(result.destination);
  if (input.values.json) {
    printJson(io, context, {
      published: result.published,
      dryRun: result.dryRun,
      destination: where,
      skills: result.skills,
      artifacts: result.artifacts,
      diagnostics: result.diagnostics.map(publicDiagnostic),
    });
    return refused ? 1 : 0;
  }
  const paint = painter(io.color);
  for (const diagnostic of result.diagnostics)
    io.stderr(formatDiagnostic(diagnostic, style, paint));
  if (refused) return 1;
  const verb = result.dryRun ? "would write" : "wrote";
  for (const artifact of result.artifacts)
    io.stdout(
      `${verb} ${displayPath(artifact.location, style)}  ${artifact.digest}${artifact.bytes === undefined ? "" : ` (${artifact.bytes} bytes)`}\n`,
    );
  const names = result.skills.map((skill) => safeLine(skill.name)).join(", ");
  io.stdout(
    `${result.dryRun ? "would publish" : "published"} ${names} to ${displayPath(where, style)}\n`,
  );
  return 0;
}
