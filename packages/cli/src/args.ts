import { parseArgs } from "node:util";
import { UsageError } from "./io.js";

type OptionSpec = {
  readonly type: "boolean" | "string";
  readonly short?: string;
  readonly multiple?: boolean;
};

/** Parse a command's arguments strictly: an unknown or malformed option is a usage error. */
export function parseCommandArgs<const O extends Record<string, OptionSpec>>(
  args: readonly string[],
  options: O,
): {
  values: { [K in keyof O]?: O[K]["type"] extends "boolean" ? boolean : string };
  positionals: string[];
} {
  try {
    const parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    return parsed as unknown as ReturnType<typeof parseCommandArgs<O>>;
  } catch (error) {
    if (
      error instanceof TypeError &&
      "code" in error &&
      String(error.code).startsWith("ERR_PARSE_ARGS")
    ) {
      throw new UsageError(error.message.replace(/\. To specify a positional argument.*$/s, ""));
    }
    throw error;
  }
}

/** `--user` / `--project` as one scope, `fallback` when neither is given; both is a usage error. */
export function scopeOption(
  values: { readonly user?: boolean | undefined; readonly project?: boolean | undefined },
  fallback: "user" | "project",
): "user" | "project" {
  if (values.user === true && values.project === true)
    throw new UsageError("--user and --project cannot be combined; pick one scope");
  return values.project === true ? "project" : values.user === true ? "user" : fallback;
}
