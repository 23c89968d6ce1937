import {
  closest,
  codedWriteError,
  createDiagnostic,
  type Diagnostic,
  errorDiagnostic,
  isSkillshelfError,
} from "@skillshelf/core";
import { commandHelp, topLevelHelp, usageLine } from "./_help.js";
import { parseCommandArguments } from "./_parse.js";
import { VERSION } from "./_version.js";
import type { CommandDefinition } from "./command.js";
import { COMMANDS } from "./commands.js";
import { commandContext, publicDiagnostic } from "./context.js";
import { formatDiagnostic, painter, safeLine } from "./format.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./usage-error.js";

/** The top-level usage, generated from the command definitions. */
export const USAGE: string = topLevelHelp(COMMANDS);

/**
 * Run the command line and return the exit status: 0 ok, 1 failure or invalid, 2 usage error.
 * Every mistake is a coded diagnostic with a hint (as JSON under `--json`), never a stack trace.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h") {
    io.stdout(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-v") {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  const json = args.includes("--json");
  if (name === "help") {
    const topic = args[0] === undefined ? undefined : findCommand(args[0]);
    if (args[0] !== undefined && topic === undefined) return unknownCommand(args[0], io, json);
    io.stdout(topic === undefined ? USAGE : commandHelp(topic));
    return 0;
  }
  const command = findCommand(name);
  if (command === undefined) return unknownCommand(name, io, json);
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout(commandHelp(command));
    return 0;
  }
  try {
    const parsed = parseCommandArguments(command, args);
    const run = await command.load();
    let context: ReturnType<typeof commandContext> | undefined;
    return await run({
      ...parsed,
      io,
      context: () => {
        const { cwd } = parsed.values;
        context ??= commandContext(typeof cwd === "string" ? cwd : undefined, io);
        return context;
      },
    });
  } catch (error) {
    return report(error, io, command, json);
  }
}

// --- internal ---

function findCommand(name: string): CommandDefinition | undefined {
  return COMMANDS.find((command) => command.name === name);
}

function unknownCommand(name: string, io: CliIo, json: boolean): number {
  const suggestion = closest(
    name,
    COMMANDS.map((command) => command.name),
  );
  const diagnostic = createDiagnostic(
    "error",
    "usage_unknown_command",
    `"${name}" is not a skillshelf command`,
    { details: { suggestion } },
  );
  return printFailure([diagnostic], io, json, 2, USAGE);
}

function report(thrown: unknown, io: CliIo, command: CommandDefinition, json: boolean): number {
  // a full disk is the user's to fix wherever it was met, never an internal error
  const error = codedWriteError(thrown);
  if (error instanceof UsageError) {
    const diagnostic = createDiagnostic("error", error.code, error.message, {
      details: error.details,
    });
    return printFailure(
      [diagnostic],
      io,
      json,
      2,
      `${usageLine(command)}\nRun "skillshelf ${command.name} --help" for its options.\n`,
    );
  }
  if (isSkillshelfError(error)) {
    return printFailure([errorDiagnostic(error)], io, json, 1);
  }
  const detail =
    io.env.SKILLSHELF_DEBUG === "1" && error instanceof Error ? `\n${error.stack}` : "";
  io.stderr(
    `skillshelf: internal error: ${error instanceof Error ? safeLine(error.message) : String(error)}${detail}\nThis is a bug in skillshelf; please report it (SKILLSHELF_DEBUG=1 shows the stack).\n`,
  );
  return 1;
}

/** A failure as JSON on stdout (under `--json`) or as text on stderr, then its exit status. */
function printFailure(
  diagnostics: readonly Diagnostic[],
  io: CliIo,
  json: boolean,
  status: number,
  after = "",
): number {
  if (json) {
    io.stdout(
      `${JSON.stringify({ version: 1, diagnostics: diagnostics.map(publicDiagnostic) }, null, 2)}\n`,
    );
    return status;
  }
  const style = { cwd: io.cwd, home: io.env.HOME ?? "" };
  const paint = painter(io.color);
  for (const diagnostic of diagnostics)
    io.stderr(`skillshelf: ${formatDiagnostic(diagnostic, style, paint).replace(/^error /, "")}`);
  if (after !== "") io.stderr(after);
  return status;
}
