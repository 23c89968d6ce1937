import { resolve } from "node:path";
import { identityKey } from "@skillshelf/core";
import { changeStageOptions, registerPackages } from "@skillshelf/lifecycle";
import { scopeIndexPath } from "@skillshelf/sources";
import { defaultScope } from "@skillshelf/store";
import { withProgress } from "../_interact.js";
import { type CommandInput, scopeValue } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, painter, safeLine } from "../format.js";

/** What `register` reads. */
type RegisterValues = {
  readonly user: boolean;
  readonly project: boolean;
  readonly json: boolean;
  readonly index: string | undefined;
  readonly skill: readonly string[] | undefined;
};

/**
 * Write a pinned row for each package the targets hold into an index (the scope's
 * `library.yaml`, or `--index FILE`): each added, updated or already as written. Exit 1 when
 * any target was refused (the others are still written).
 */
export async function runRegister(input: CommandInput<RegisterValues>): Promise<number> {
  const { io } = input;
  const context = input.context();
  const { environment, style } = context;
  const scope = scopeValue(input, defaultScope(environment));
  const index =
    input.values.index === undefined
      ? scopeIndexPath(environment, scope)
      : resolve(environment.cwd, input.values.index);
  const result = await withProgress(io, (progress) =>
    registerPackages({
      environment,
      targets: input.positionals,
      index,
      skills: (input.values.skill ?? []).flatMap((names) => names.split(",")),
      progress,
      stage: changeStageOptions(environment, scope, {
        texts: input.positionals,
        allowMcpCommand: false,
      }),
    }),
  );
  const failed = result.refused.length > 0;
  if (input.values.json) {
    printJson(io, context, {
      index: result.index,
      rows: result.rows.map(({ target: _target, ...row }) => row),
      refused: result.refused.map((one) => ({
        target: one.target,
        ...publicDiagnostic(one.refusal),
      })),
    });
    return failed ? 1 : 0;
  }
  const paint = painter(io.color);
  for (const { refusal } of result.refused) io.stderr(formatDiagnostic(refusal, style, paint));
  for (const row of result.rows)
    io.stdout(
      `${row.change.padEnd(9)} ${safeLine(identityKey(row.kind, row.name))} ${safeLine(row.version)}  ${safeLine(row.sourceUrl)}  sha256:${row.sha256}\n`,
    );
  if (result.rows.length > 0)
    io.stdout(`registered ${result.rows.length} in ${displayPath(result.index, style)}\n`);
  return failed ? 1 : 0;
}
