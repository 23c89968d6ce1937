import { resolve } from "node:path";
import { createBundle } from "@skillshelf/lifecycle";
import { defaultScope } from "@skillshelf/store";
import { VERSION } from "../_version.js";
import { type CommandInput, scopeValue } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, painter, plural } from "../format.js";
import { UsageError } from "../usage-error.js";

/** `bundle create FILE`: write the scope's offline bundle (`createBundle`). Exit 1 when refused. */
export async function runBundle(
  input: CommandInput<{
    readonly json: boolean;
    readonly user: boolean;
    readonly project: boolean;
    readonly sign: string | undefined;
  }>,
): Promise<number> {
  const { io, values } = input;
  const [action, file = ""] = input.positionals;
  if (action !== "create")
    throw new UsageError("usage_invalid_value", `${action}: write skillshelf bundle create <file>`);
  const context = input.context();
  const { environment } = context;
  const scope = scopeValue(input, defaultScope(environment));
  const result = await createBundle({
    environment,
    scope,
    file: resolve(environment.cwd, file),
    sign: values.sign === undefined ? undefined : resolve(environment.cwd, values.sign),
    tool: { name: "skillshelf", version: VERSION },
  });
  if (values.json) {
    printJson(
      io,
      context,
      "refusal" in result
        ? { ok: false, refusal: publicDiagnostic(result.refusal) }
        : { ok: true, scope, ...result },
    );
    return "refusal" in result ? 1 : 0;
  }
  if ("refusal" in result) {
    io.stderr(formatDiagnostic(result.refusal, context.style, painter(io.color)));
    return 1;
  }
  io.stdout(
    `wrote ${displayPath(result.file, context.style)}: ${plural(result.packages, "package")} of the ${scope} scope, ${result.bytes} bytes${values.sign === undefined ? "" : ", signed"}\n`,
  );
  return 0;
}
