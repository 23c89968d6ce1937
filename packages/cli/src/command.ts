import type { CommandContext } from "./context.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./usage-error.js";

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
  /** A whole number, with its inclusive range, and a unit it may be written with (`30d`). */
  readonly integer?: { readonly min: number; readonly max?: number; readonly unit?: string };
}

/** A flag as a literal type, for the shared options' types. */
interface Flag extends OptionSpec {
  readonly type: "boolean";
}

/** The options every command of its kind shares, declared once, as types. */
interface SharedSpecs {
  readonly json: { readonly json: Flag };
  readonly cwd: { readonly cwd: OptionSpec & { readonly type: "string" } };
  readonly scope: { readonly user: Flag; readonly project: Flag };
}

type SharedOption = keyof SharedSpecs;

/** A command's own options, by name. */
type Options = Readonly<Record<string, OptionSpec>>;

/** What an option parses to: a flag is always there, a repeatable one collects into a list. */
type OptionValueOf<S extends OptionSpec> = S extends { readonly type: "boolean" }
  ? boolean
  : S extends { readonly multiple: true }
    ? readonly string[]
    : S extends { readonly integer: object }
      ? number | undefined
      : S extends { readonly choices: readonly (infer C)[] }
        ? C | undefined
        : string | undefined;

/** The parsed values of a set of options, by name (as citty's `ParsedArgs<T>`). */
type ValuesOf<O> = {
  readonly [K in keyof O]: O[K] extends OptionSpec ? OptionValueOf<O[K]> : never;
};

type Intersection<U> = (U extends unknown ? (part: U) => void : never) extends (
  whole: infer I,
) => void
  ? I
  : never;

/** The values of a command with options `O` that shares `S`. */
type CommandValues<O, S extends SharedOption> = ValuesOf<O> &
  ValuesOf<Intersection<SharedSpecs[S]>>;

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
  readonly options?: Options;
  readonly shared: readonly SharedOption[];
  /** Options come before the first argument; everything from it on is the command's (`prompt`). */
  readonly passThrough?: boolean;
  /** The exit statuses, when they say more than 0 ok, 1 failed, 2 usage. */
  readonly exits?: string;
  /** The implementation, imported only when the command runs (start-up stays fast). */
  readonly load: () => Promise<CommandRun<ParsedValues>>;
}

/** A command's implementation: returns the exit status. */
type CommandRun<V> = (input: CommandInput<V>) => number | Promise<number>;

/** A parsed option value. */
export type OptionValue = string | boolean | number | readonly string[];

/** Values as the parser returns them, checked against the command's definition. */
export type ParsedValues = Readonly<Record<string, OptionValue | undefined>>;

/**
 * What a command runs with: its options' values (typed from its definition), its arguments, the
 * process, and its context.
 */
export interface CommandInput<V> {
  readonly values: V;
  readonly positionals: readonly string[];
  readonly io: CliIo;
  /** The environment of `--cwd` and how to show its paths (resolved on first use). */
  readonly context: () => CommandContext;
}

/**
 * A command whose implementation reads its options' values by name with their types: the
 * definition's options (and the shared ones it takes) decide what `input.values` holds, and an
 * implementation reading an option the definition lacks, or as another type, does not compile.
 */
export function defineCommand<
  const O extends Options = Record<never, OptionSpec>,
  const S extends SharedOption = never,
>(
  definition: Omit<CommandDefinition, "options" | "shared" | "load"> & {
    readonly options?: O;
    readonly shared: readonly S[];
    readonly load: () => Promise<CommandRun<CommandValues<O, S>>>;
  },
): CommandDefinition {
  return {
    ...definition,
    load: async () => {
      const run = await definition.load();
      // the parser checked every value against these very options (kinds, choices, ranges)
      return (input) => run({ ...input, values: input.values as CommandValues<O, S> });
    },
  };
}

/** Shared options as specs. */
const SHARED_OPTIONS: SharedSpecs = {
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

/** `--user` / `--project` as one scope, `fallback` when neither is given; both is a usage error. */
export function scopeValue(
  input: CommandInput<{ readonly user: boolean; readonly project: boolean }>,
  fallback: "user" | "project",
): "user" | "project" {
  const { user, project } = input.values;
  if (user && project)
    throw new UsageError(
      "usage_invalid_value",
      "--user and --project cannot be combined; pick one scope",
    );
  return project ? "project" : user ? "user" : fallback;
}
