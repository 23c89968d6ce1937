import {
  advisoryRefusal,
  changeScope,
  changeStageOptions,
  checkAdvisories,
  checkUpdates,
  type UpdateCheck,
} from "@skillshelf/lifecycle";
import type { CommandInput } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { formatDiagnostic, type Paint, painter, safeLine, shortHash } from "../format.js";
import { chosenScope } from "./_scope.js";

/**
 * `update --check [id…]`: ask each installed package's source what it would install now, writing
 * nothing, and print the pinned and the newest commit or version of each. Exit 0 only when every
 * package was compared and is up to date; 1 when anything is out of date, could not be asked, or
 * is revoked by an advisory followed here.
 */
export async function runUpdateCheck(
  input: CommandInput<{
    readonly user: boolean;
    readonly project: boolean;
    readonly json: boolean;
    readonly "allow-mcp-command"?: boolean;
  }>,
): Promise<number> {
  const { io } = input;
  const context = input.context();
  const { environment } = context;
  const ids = input.positionals.length === 0 ? undefined : input.positionals;
  // with ids and no scope named, the copies of those ids in either scope
  const scope = chosenScope(input, environment, ids !== undefined);
  // git runs with this command's environment, as every fetch does
  const checks = await checkUpdates({
    environment,
    scope,
    ids,
    stage: changeStageOptions(
      environment,
      scope ?? changeScope(environment, undefined, false) ?? "user",
      {
        texts: [],
        allowMcpCommand: input.values["allow-mcp-command"] === true,
      },
    ),
  });
  // a copy an advisory revokes is reported whatever its source offers now
  const revoked = checkAdvisories(environment).revoked.filter(
    (copy) =>
      (scope === undefined || copy.scope === scope) && (ids === undefined || ids.includes(copy.id)),
  );
  const current = checks.every((check) => check.status === "up-to-date") && revoked.length === 0;
  if (input.values.json) {
    printJson(io, context, {
      checks,
      upToDate: current,
      revoked: revoked.map((copy) => publicDiagnostic(advisoryRefusal(copy, copy.id))),
    });
    return current ? 0 : 1;
  }
  const paint = painter(io.color);
  if (checks.length === 0) io.stdout("nothing installed to check\n");
  for (const check of checks) io.stdout(checkLine(check, paint));
  for (const copy of revoked)
    io.stderr(
      formatDiagnostic(advisoryRefusal(copy, `${copy.id} (${copy.scope})`), context.style, paint),
    );
  return current ? 0 : 1;
}

// --- internal ---

const STATUS = {
  "up-to-date": ["green", "up to date"],
  "out-of-date": ["yellow", "out of date"],
  unknown: ["red", "unknown"],
} as const;

function checkLine(check: UpdateCheck, paint: Paint): string {
  const [color, label] = STATUS[check.status];
  const pinned = check.pinned.commit ?? check.pinned.version ?? shortHash(check.pinned.digest);
  const newest = check.newest?.commit ?? check.newest?.version ?? check.newest?.digest;
  const versions =
    newest === undefined || check.status === "up-to-date"
      ? shortHash(pinned)
      : `${shortHash(pinned)} → ${shortHash(newest)}`;
  const lines = [
    `${paint(color, label.padEnd(11))} ${safeLine(check.id)} (${check.scope}) ${versions}: ${safeLine(check.reason)}`,
    `            from ${safeLine(check.source)}`,
  ];
  if (check.error !== undefined)
    lines.push(
      `            ${check.error.code}: ${safeLine(check.error.message)}`,
      `            next: ${safeLine(check.error.hint)}`,
    );
  return `${lines.join("\n")}\n`;
}
