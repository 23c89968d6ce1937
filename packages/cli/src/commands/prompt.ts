import { invokePromptTemplate, loadPromptTemplates } from "@skillshelf/prompts-loader";
import { commandContext } from "../context.js";
import { safeBlock, safeLine } from "../format.js";
import { type CliIo, UsageError } from "../io.js";

export const PROMPT_USAGE = `Usage: skillshelf prompt [--cwd DIR] [--json] [--allow-untrusted] <name> [args…]

Expand a prompt template with arguments and print the result, or print the card of a
display-only template. Options go before the name; everything after it is the template's.

Options:
  --allow-untrusted  expand a template from another agent's folder too
  --json             print {"version":1,"kind":…,"name":…,"text":…}
  --cwd DIR          the project folder (default: the current folder)

Exit status: 0 expanded, 1 unknown, unavailable or untrusted template, 2 usage error.
`;

export function runPrompt(args: readonly string[], io: CliIo): number {
  const { options, name, templateArgs } = splitPromptArgs(args);
  const { environment } = commandContext(options.cwd, io);
  const { items } = loadPromptTemplates(environment);
  const template = items.find((candidate) => candidate.name === name);
  const expansion =
    template === undefined
      ? ({
          kind: "refused",
          name,
          code: "prompt_unknown",
          reason: `no prompt template is named /${name}; skillshelf list --kind prompts shows them`,
        } as const)
      : invokePromptTemplate(
          template,
          { args: templateArgs, raw: templateArgs.join(" ") },
          { allowUntrusted: options.allowUntrusted },
        );
  if (options.json) {
    io.stdout(`${JSON.stringify({ version: 1, ...expansion }, null, 2)}\n`);
    return expansion.kind === "refused" ? 1 : 0;
  }
  if (expansion.kind === "refused") {
    const hint =
      expansion.code === "prompt_untrusted"
        ? "\nhint: pass --allow-untrusted to expand it anyway"
        : "";
    io.stderr(`skillshelf: ${expansion.code}: ${safeLine(expansion.reason)}${hint}\n`);
    return 1;
  }
  const text = safeBlock(expansion.text);
  io.stdout(text.endsWith("\n") ? text : `${text}\n`);
  return 0;
}

// --- internal ---

/** Options come first; the first other word is the name (a leading `/` is allowed); the rest are the template's. */
function splitPromptArgs(args: readonly string[]): {
  options: { cwd: string | undefined; json: boolean; allowUntrusted: boolean };
  name: string;
  templateArgs: string[];
} {
  const options = { cwd: undefined as string | undefined, json: false, allowUntrusted: false };
  let index = 0;
  for (; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "--") {
      index += 1;
      break;
    }
    if (arg === "--json") options.json = true;
    else if (arg === "--allow-untrusted") options.allowUntrusted = true;
    else if (arg === "--cwd" || arg.startsWith("--cwd=")) {
      const value = arg === "--cwd" ? args[++index] : arg.slice("--cwd=".length);
      if (value === undefined) throw new UsageError("--cwd needs a folder");
      options.cwd = value;
    } else if (arg.startsWith("-"))
      throw new UsageError(`unknown option ${arg}; options go before the template name`);
    else break;
  }
  const name = args[index]?.replace(/^\//, "");
  if (name === undefined || name === "") throw new UsageError("name the prompt template to expand");
  return { options, name, templateArgs: args.slice(index + 1) };
}
