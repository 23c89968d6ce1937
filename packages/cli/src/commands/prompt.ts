import { invokePromptTemplate, type PromptExpansion } from "@skillshelf/prompts-loader";
import type { CommandInput } from "../command.js";
import { printJson } from "../context.js";
import { safeBlock, safeLine } from "../format.js";
import { resourcesOf } from "../resources.js";

export function runPrompt(
  input: CommandInput<{ readonly "allow-untrusted": boolean; readonly json: boolean }>,
): number {
  const { io } = input;
  const [typed = "", ...templateArgs] = input.positionals;
  const name = typed.replace(/^\//, "");
  const context = input.context();
  const template = resourcesOf(context)
    .read(context.environment.cwd)
    .load("prompt")
    .items.find((candidate) => candidate.name === name);
  const expansion: PromptExpansion =
    template === undefined
      ? {
          kind: "refused",
          name,
          code: "prompt_unknown",
          reason: `no prompt template is named /${name}`,
        }
      : invokePromptTemplate(
          template,
          { args: templateArgs, raw: templateArgs.join(" ") },
          { allowUntrusted: input.values["allow-untrusted"] },
        );
  if (input.values.json) {
    printJson(io, context, { ...expansion });
    return expansion.kind === "refused" ? 1 : 0;
  }
  if (expansion.kind === "refused") {
    const hint =
      expansion.code === "prompt_untrusted"
        ? "pass --allow-untrusted to expand it anyway"
        : "skillshelf list --kind prompts shows the templates";
    io.stderr(`skillshelf: ${expansion.code}: ${safeLine(expansion.reason)}\n  hint: ${hint}\n`);
    return 1;
  }
  const text = safeBlock(expansion.text);
  io.stdout(text.endsWith("\n") ? text : `${text}\n`);
  return 0;
}
