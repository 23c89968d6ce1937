import { escapeXml } from "./_sanitize.js";

/** Where a skill's other files are, for the activation block's resource hint. */
export type ResourceBase =
  | { readonly kind: "directory"; readonly path: string }
  | { readonly kind: "url"; readonly url: string }
  | { readonly kind: "opaque"; readonly description: string };

/** A skill being activated: its name, its body, and where its other files are. */
export interface SkillContentInput {
  readonly name: string;
  /** The markdown body (the part after the frontmatter). */
  readonly content: string;
  readonly resourceBase?: ResourceBase | undefined;
}

/**
 * The one block a model sees when a skill is activated, by a tool call or by the operator:
 * `<skill_content name="…">` with a `<skill_resources>` hint (resolve relative paths against a
 * folder, relative URLs against a URL, or what an opaque base says) and `<skill_instructions>`
 * holding the body. Everything inside is escaped, so a body cannot open or close these tags.
 */
export function renderSkillContent(skill: SkillContentInput): string {
  return [
    `<skill_content name="${escapeXml(skill.name)}">`,
    "<skill_resources>",
    escapeXml(resourceHint(skill.resourceBase)),
    "</skill_resources>",
    "<skill_instructions>",
    escapeXml(skill.content),
    "</skill_instructions>",
    "</skill_content>",
  ].join("\n");
}

// --- internal ---

function resourceHint(base: ResourceBase | undefined): string {
  if (base === undefined) return "This skill's resources are managed by its provider.";
  if (base.kind === "directory")
    return `Resolve relative paths in these instructions against the folder ${base.path}; read its files only when a step needs them.`;
  if (base.kind === "url")
    return `Resolve relative URLs in these instructions against ${base.url}.`;
  return base.description;
}
