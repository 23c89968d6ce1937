import type { GetPromptResult, Prompt } from "@modelcontextprotocol/sdk/types.js";
import {
  invokePromptTemplate,
  type PromptTemplate,
  splitArguments,
  templateParameters,
} from "@skillshelf/prompts-loader";
import { invalidParams } from "./_errors.js";

/** The name of the argument holding the whole argument text (`$ARGUMENTS`, `$@`). */
const REST_ARGUMENT = "arguments";

/** The templates served as prompts: trusted, usable, and sending text to a model (not display-only). */
export function listedPrompts(templates: readonly PromptTemplate[]): PromptTemplate[] {
  return templates.filter(
    (one) => one.trusted && one.unavailable === undefined && !one.displayOnly,
  );
}

/**
 * A template as `prompts/list` gives it: its arguments from its placeholders, `arg1`… for `$1`…
 * and `arguments` for the whole text when it uses `$ARGUMENTS`, `$@` or a slice of them.
 */
export function promptDescription(template: PromptTemplate): Prompt {
  const { positions, rest } = templateParameters(template.content);
  const args = Array.from({ length: positions }, (_, index) => ({
    name: `arg${index + 1}`,
    description: `argument ${index + 1} ($${index + 1})`,
    required: false,
  }));
  if (rest)
    args.push({
      name: REST_ARGUMENT,
      description: template.argumentHint ?? "the arguments as one text ($ARGUMENTS)",
      required: false,
    });
  return { name: template.name, description: template.description, arguments: args };
}

/**
 * `prompts/get`: the template expanded by the prompts loader. `arg1`… fill the positions;
 * `arguments` is the whole text, split into positions when none is given on its own.
 */
export function getPrompt(
  templates: readonly PromptTemplate[],
  name: string,
  values: Readonly<Record<string, string>>,
): GetPromptResult {
  const template = templates.find((one) => one.name === name);
  if (template === undefined)
    throw invalidParams("mcp_prompt_refused", `no prompt template ${name} is served`, { name });
  const positional: string[] = [];
  for (let index = 1; values[`arg${index}`] !== undefined; index += 1)
    positional.push(values[`arg${index}`] as string);
  const raw = values[REST_ARGUMENT];
  const args = positional.length > 0 || raw === undefined ? positional : splitArguments(raw);
  const expansion = invokePromptTemplate(template, { args, raw });
  if (expansion.kind !== "expanded")
    throw invalidParams(
      "mcp_prompt_refused",
      expansion.kind === "refused" ? expansion.reason : `${name} is display-only`,
      { name },
    );
  return {
    description: template.description,
    messages: [{ role: "user", content: { type: "text", text: expansion.text } }],
  };
}
