import { parseArgs } from "node:util";
import { closest } from "@skillshelf/core";
import {
  type CommandDefinition,
  type OptionSpec,
  type OptionValue,
  optionsOf,
  type ParsedValues,
} from "./command.js";
import { UsageError } from "./usage-error.js";

/** A command line parsed against one command's definition. */
export interface ParsedArguments {
  /** Every option of the command: a flag not given is false, a repeatable one not given is empty. */
  readonly values: ParsedValues;
  readonly positionals: readonly string[];
}

/**
 * Parse a command's arguments strictly against its definition. Every mistake is a `UsageError`
 * with a code: an unknown option (`usage_unknown_option`, with the closest option as a hint), an
 * option missing its value or a command missing an argument (`usage_missing_argument`), a value
 * outside the option's choices or range (`usage_invalid_value`), extra arguments
 * (`usage_extra_argument`).
 */
export function parseCommandArguments(
  command: CommandDefinition,
  args: readonly string[],
): ParsedArguments {
  const specs = optionsOf(command);
  const [optionArgs, rest] =
    command.passThrough === true ? splitAtFirstArgument(args, specs) : [args, []];
  let parsed: {
    values: Record<string, string | boolean | (string | boolean)[] | undefined>;
    positionals: string[];
  };
  try {
    parsed = parseArgs({
      args: [...optionArgs],
      options: Object.fromEntries(
        Object.entries(specs).map(([name, spec]) => [
          name,
          { type: spec.type, ...(spec.multiple === true ? { multiple: true } : {}) },
        ]),
      ),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw usageMistake(error, command, specs);
  }
  const positionals = [...parsed.positionals, ...rest];
  const values: Record<string, OptionValue | undefined> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const given = parsed.values[name];
    values[name] =
      given === undefined
        ? absent(spec)
        : checkValue(name, typeof given === "object" ? given.map(String) : given, spec);
  }
  const { min, max } = command.positionals ?? { min: 0, max: 0 };
  if (positionals.length < min)
    throw new UsageError(
      "usage_missing_argument",
      `${command.name} needs ${command.arguments ?? "an argument"}`,
    );
  if (max !== undefined && positionals.length > max)
    throw new UsageError(
      "usage_extra_argument",
      `${command.name} takes ${max === 0 ? "no arguments" : `at most ${max}`}; ${JSON.stringify(positionals.slice(max).join(" "))} is extra`,
    );
  return { values, positionals };
}

// --- internal ---

/** Options up to the first argument (or `--`), and everything from the argument on. */
function splitAtFirstArgument(
  args: readonly string[],
  specs: Readonly<Record<string, OptionSpec>>,
): [string[], string[]] {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "--") return [args.slice(0, index), args.slice(index + 1)];
    if (!arg.startsWith("-") || arg === "-") return [args.slice(0, index), args.slice(index)];
    const name = arg.replace(/^--?/, "").split("=")[0] as string;
    if (specs[name]?.type === "string" && !arg.includes("=")) index += 1;
  }
  return [[...args], []];
}

/** A flag not given is false, a repeatable option not given is empty, any other is absent. */
function absent(spec: OptionSpec): OptionValue | undefined {
  return spec.type === "boolean" ? false : spec.multiple === true ? [] : undefined;
}

function checkValue(name: string, given: OptionValue, spec: OptionSpec): OptionValue {
  if (typeof given !== "string") return given;
  const value = spec.aliases?.[given] ?? given;
  if (spec.choices !== undefined && !spec.choices.includes(value))
    throw new UsageError(
      "usage_invalid_value",
      `--${name} ${value} is not one of ${spec.choices.join(", ")}`,
      suggestion(value, spec.choices, (choice) => `--${name} ${choice}`),
    );
  if (spec.integer === undefined) return value;
  const { min, max, unit } = spec.integer;
  const digits = unit !== undefined && value.endsWith(unit) ? value.slice(0, -unit.length) : value;
  const number = Number(digits);
  if (!/^-?\d+$/.test(digits) || number < min || (max !== undefined && number > max))
    throw new UsageError(
      "usage_invalid_value",
      `--${name} needs a whole number ${max === undefined ? `of at least ${min}` : `from ${min} to ${max}`}, not ${JSON.stringify(value)}`,
    );
  return number;
}

function usageMistake(
  error: unknown,
  command: CommandDefinition,
  specs: Readonly<Record<string, OptionSpec>>,
): unknown {
  const code = (error as { code?: unknown }).code;
  const message = (error as Error).message;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const option = /'(-[^']*)'/.exec(message)?.[1] ?? "";
    return new UsageError(
      "usage_unknown_option",
      `${option} is not an option of skillshelf ${command.name}`,
      suggestion(option.replace(/^--?/, ""), Object.keys(specs), (name) => `--${name}`),
    );
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const option = /'(--?[a-z-]+)/.exec(message)?.[1] ?? "the option";
    if (message.includes("ambiguous"))
      return new UsageError(
        "usage_value_starts_with_dash",
        `the value after ${option} starts with "-"`,
      );
    return message.includes("argument missing")
      ? new UsageError("usage_missing_argument", `${option} needs a value`)
      : new UsageError("usage_invalid_value", `${option} takes no value`);
  }
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL")
    return new UsageError("usage_extra_argument", `skillshelf ${command.name} takes no arguments`);
  return error;
}

/** The closest candidate to what was typed, as the catalogue's did-you-mean fills it in. */
function suggestion(
  typed: string,
  candidates: readonly string[],
  show: (candidate: string) => string,
): { readonly suggestion?: string } {
  const found = closest(typed, candidates);
  return found === undefined ? {} : { suggestion: show(found) };
}
