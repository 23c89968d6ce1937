import type { Code } from "@skillshelf/core";
import type { CommandContext } from "./context.js";
import type { CliIo } from "./io.js";

/** One option of a command, as parsed and as `--help` shows it. */
export interface OptionSpec {
  readonly type: "boolean" | "string";
  /** May be given more than once (values collect in order). */
  readonly multiple?: boolean;
  /** The placeholder `--help` shows for the value: `DIR`, `N`, `KIND`. */
  readonly value?: string;
  readonly help: string;
  /** The only values accepted. */
  readonly choices?: readonly string[];
  /** Other spellings of a choice, taken as it: `{ skill: "skills" }`. */
  readonly aliases?: Readonly<Record<string, string>>;
  /** A whole number, with its inclusive range. */
  readonly integer?: { readonly min: number; readonly max?: number };
}

/** Options every command of its kind shares, declared once. */
type SharedOption = "json" | "cwd" | "scope";

/** A command as data: what `--help`, the top-level usage and the parser are generated from. */
export interface CommandDefinition {
  readonly name: string;
  /** One line for the top-level usage. */
  readonly summary: string;
  /** The paragraph `--help` shows. */
  readonly description: string;
  /** The positional arguments as `--help` shows them: `<name>`, `<path…>`. */
  readonly arguments?: string;
  /** How many positional arguments it takes. Default none. */
  readonly positionals?: { readonly min: number; readonly max?: number };
  readonly options?: Readonly<Record<string, OptionSpec>>;
  readonly shared: readonly SharedOption[];
  /** Options come before the first argument; everything from it on is the command's (`prompt`). */
  readonly passThrough?: boolean;
  /** The exit statuses, when they say more than 0 ok, 1 failed, 2 usage. */
  readonly exits?: string;
  /** The implementation, imported only when the command runs (start-up stays fast). */
  readonly load: () => Promise<CommandRun>;
}

/** A command's implementation: returns the exit status. */
type CommandRun = (input: CommandInput) => number | Promise<number>;

/** A parsed option value. */
export type OptionValue = string | boolean | number | readonly string[];

/** What a command runs with: its parsed options and arguments, the process, and its context. */
export interface CommandInput {
  readonly values: Readonly<Record<string, OptionValue | undefined>>;
  readonly positionals: readonly string[];
  readonly io: CliIo;
  /** The environment of `--cwd` and how to show its paths (resolved on first use). */
  readonly context: () => CommandContext;
}

/** A usage mistake: a coded diagnostic, printed with the command's usage line, exit status 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
  readonly code: Code;
  readonly hint: string | undefined;

  constructor(code: Code, message: string, hint?: string) {
    super(message);
    this.code = code;
    this.hint = hint;
  }
}

/** Shared options as specs. */
const SHARED_OPTIONS: Readonly<Record<SharedOption, Readonly<Record<string, OptionSpec>>>> = {
  json: { json: { type: "boolean", help: "print the result as versioned JSON" } },
  cwd: {
    cwd: {
      type: "string",
      value: "DIR",
      help: "work from DIR (default: the current folder); its project is found from there",
    },
  },
  scope: {
    user: { type: "boolean", help: "the user scope" },
    project: { type: "boolean", help: "the project scope" },
  },
};

/** Every option a command takes: its own, then the shared ones it declares. */
export function optionsOf(command: CommandDefinition): Readonly<Record<string, OptionSpec>> {
  return Object.assign({}, command.options, ...command.shared.map((name) => SHARED_OPTIONS[name]));
}

/** A string option's value, or `undefined`. */
export function stringValue(input: CommandInput, name: string): string | undefined {
  const value = input.values[name];
  return typeof value === "string" ? value : undefined;
}

/** A boolean option: true when given. */
export function flag(input: CommandInput, name: string): boolean {
  return input.values[name] === true;
}

/** An integer option's value, or `undefined`. */
export function integerValue(input: CommandInput, name: string): number | undefined {
  const value = input.values[name];
  return typeof value === "number" ? value : undefined;
}

/** A repeatable option's values, in order. */
export function listValue(input: CommandInput, name: string): readonly string[] {
  const value = input.values[name];
  return Array.isArray(value) ? value : [];
}

/** `--user` / `--project` as one scope, `fallback` when neither is given; both is a usage error. */
export function scopeValue(input: CommandInput, fallback: "user" | "project"): "user" | "project" {
  if (flag(input, "user") && flag(input, "project"))
    throw new UsageError(
      "usage_invalid_value",
      "--user and --project cannot be combined; pick one scope",
    );
  return flag(input, "project") ? "project" : flag(input, "user") ? "user" : fallback;
}
