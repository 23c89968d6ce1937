import { parsePromptCommand } from "./command.js";
import { extractDisplayText } from "./display.js";
import { type PromptArguments, substituteArguments } from "./substitute.js";
import type { PromptTemplate } from "./types.js";

/** What invoking a template produced. */
export type PromptExpansion =
  /** The text to send to the model. */
  | { readonly kind: "expanded"; readonly name: string; readonly text: string }
  /** A display-only template: show `text`; nothing goes to a model; `input` is the untouched input. */
  | {
      readonly kind: "display";
      readonly name: string;
      readonly text: string;
      readonly input: string;
    }
  /** The template does not exist, cannot run, or is not trusted; `reason` says why. */
  | {
      readonly kind: "refused";
      readonly name: string;
      readonly code: PromptRefusal;
      readonly reason: string;
    };

/** Stable codes of a refused invocation. */
export type PromptRefusal = "prompt_unknown" | "prompt_unavailable" | "prompt_untrusted";

export interface ExpandOptions {
  /** Expand templates from untrusted roots (another agent's folder) too. Default false. */
  readonly allowUntrusted?: boolean | undefined;
}

/**
 * Expand a `/name args` input against the loaded templates, or return `undefined` when the input is
 * not a command. The checks run in order: unknown, unavailable, trust, display-only, substitution.
 * @example expandPromptTemplate("/review src/app.ts", items) // { kind: "expanded", name: "review", text: "Review src/app.ts …" }
 */
export function expandPromptTemplate(
  text: string,
  templates: readonly PromptTemplate[],
  options: ExpandOptions = {},
): PromptExpansion | undefined {
  const command = parsePromptCommand(text);
  if (command === undefined) return undefined;
  const template = templates.find((candidate) => candidate.name === command.name);
  if (template === undefined) {
    return {
      kind: "refused",
      name: command.name,
      code: "prompt_unknown",
      reason: `no prompt template is named /${command.name}`,
    };
  }
  return invokePromptTemplate(template, command, { ...options, input: text });
}

/** Invoke one template with arguments already split (a command line passes them this way). */
export function invokePromptTemplate(
  template: PromptTemplate,
  invocation: PromptArguments,
  options: ExpandOptions & { readonly input?: string | undefined } = {},
): PromptExpansion {
  const { name } = template;
  if (template.unavailable !== undefined) {
    return {
      kind: "refused",
      name,
      code: "prompt_unavailable",
      reason: `prompt template /${name} cannot run: ${template.unavailable} (${template.path})`,
    };
  }
  if (!template.trusted && options.allowUntrusted !== true) {
    return {
      kind: "refused",
      name,
      code: "prompt_untrusted",
      reason: `prompt template /${name} comes from ${template.source}'s ${template.scope} folder, which is not trusted; import it, or allow untrusted templates for this call`,
    };
  }
  if (template.displayOnly) {
    return {
      kind: "display",
      name,
      text: extractDisplayText(template.content),
      input: options.input ?? invocation.raw ?? invocation.args.join(" "),
    };
  }
  return { kind: "expanded", name, text: substituteArguments(template.content, invocation) };
}
