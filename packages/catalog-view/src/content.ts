import { escapeXml, unescapeXml } from "./_sanitize.js";

/** Where a skill's other files are, for the activation block's resource hint. */
export type ResourceBase =
  | { readonly kind: "directory"; readonly path: string }
  | { readonly kind: "url"; readonly url: string }
  | { readonly kind: "opaque"; readonly description: string };

// what follows the `<` of a tag that would close the block
const CLOSING = String.raw`(?=\s*\/\s*skill_(?:instructions|content))`;
// a closing tag's `<`, or one written as an entity already (`&lt;`, `&amp;lt;`, …): rendering
// writes the first `&lt;` and adds one `amp;` to the others, so every one can be told apart
const CLOSER = new RegExp(`(?:<|&(?:amp;)*lt;)${CLOSING}`, "gi");
const ESCAPED_CLOSER = new RegExp(`&(?:amp;)*lt;${CLOSING}`, "gi");

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
 * holding the body. The name and the hint are escaped; the body reaches the model byte for byte,
 * except that what could close the block (`</skill_instructions`, `</skill_content`, in any case
 * and spacing) has its `<` written `&lt;`, reversibly: `parseSkillContent` gives the body back.
 */
export function renderSkillContent(skill: SkillContentInput): string {
  return [
    `<skill_content name="${escapeXml(skill.name)}">`,
    "<skill_resources>",
    escapeXml(resourceHint(skill.resourceBase)),
    "</skill_resources>",
    "<skill_instructions>",
    skill.content.replace(CLOSER, (opener) =>
      opener === "<" ? "&lt;" : `&amp;${opener.slice(1)}`,
    ),
    "</skill_instructions>",
    "</skill_content>",
  ].join("\n");
}

/**
 * The name and body of a block `renderSkillContent` made, exactly as they were given, or
 * `undefined` when `block` is not one.
 */
export function parseSkillContent(
  block: string,
): { readonly name: string; readonly content: string } | undefined {
  const opened =
    /^<skill_content name="([^"]*)">\n<skill_resources>\n[\s\S]*?\n<\/skill_resources>\n<skill_instructions>\n/.exec(
      block,
    );
  const end = "\n</skill_instructions>\n</skill_content>";
  if (opened === null || !block.endsWith(end) || block.length - end.length < opened[0].length)
    return undefined;
  const body = block.slice(opened[0].length, block.length - end.length);
  return {
    name: unescapeXml(opened[1] as string),
    // the one `amp;` rendering added comes off; a bare `&lt;` was a `<`
    content: body.replace(ESCAPED_CLOSER, (opener) =>
      opener.length === 4 ? "<" : `&${opener.slice(5)}`,
    ),
  };
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
