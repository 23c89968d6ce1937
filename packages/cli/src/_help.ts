import { AGENTS } from "@skillshelf/core";
import { type CommandDefinition, type OptionSpec, optionsOf } from "./command.js";

/** A command's `--help`, generated from its definition. */
export function commandHelp(command: CommandDefinition): string {
  const options = Object.entries(optionsOf(command));
  const shown = options.map(([name, spec]) => {
    const value = spec.value ?? (spec.choices === undefined ? "VALUE" : spec.choices.join("|"));
    return [`--${name}${spec.type === "string" ? ` ${value}` : ""}`, optionHelp(spec)] as const;
  });
  const width = Math.max(0, ...shown.map(([left]) => left.length));
  return [
    usageLine(command),
    "",
    command.description,
    "",
    ...(shown.length === 0
      ? []
      : ["Options:", ...shown.map(([left, help]) => `  ${left.padEnd(width)}  ${help}`), ""]),
    `Exit status: ${command.exits ?? "0 done, 1 failed, 2 usage error"}.`,
    "",
  ].join("\n");
}

/** `Usage: skillshelf <name> <arguments> [--option VALUE] …`, on one line. */
export function usageLine(command: CommandDefinition): string {
  const options = Object.entries(optionsOf(command)).map(
    ([name, spec]) => `[--${name}${spec.type === "string" ? ` ${spec.value ?? "VALUE"}` : ""}]`,
  );
  const words =
    command.passThrough === true
      ? ["skillshelf", command.name, ...options, command.arguments ?? ""]
      : ["skillshelf", command.name, command.arguments ?? "", ...options];
  return `Usage: ${words.filter((word) => word !== "").join(" ")}`;
}

/** The top-level usage: every command with its summary. */
export function topLevelHelp(commands: readonly CommandDefinition[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    "Usage: skillshelf <command> [options]",
    "",
    "Skillshelf manages the skills, prompts and agents that coding agents load, across Claude Code,",
    `Codex, Cursor, Copilot, OpenCode and ${AGENTS.length - 5} more (skillshelf explain --all lists them).`,
    "",
    "Commands:",
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    "",
    'Run "skillshelf <command> --help" for a command\'s options.',
    "",
  ].join("\n");
}

// --- internal ---

function optionHelp(spec: OptionSpec): string {
  const range =
    spec.integer === undefined
      ? ""
      : ` (${spec.integer.max === undefined ? `at least ${spec.integer.min}` : `${spec.integer.min}–${spec.integer.max}`})`;
  return `${spec.help}${range}${spec.multiple === true ? " (repeatable)" : ""}`;
}
