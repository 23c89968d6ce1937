import { renderSkillContent } from "@skillshelf/catalog-view";
import { isModelVisible, readSkillBody } from "@skillshelf/skills-loader";
import type { CommandInput } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { formatDiagnostic, painter } from "../format.js";
import { resourcesOf } from "../resources.js";
import { unknownResource } from "./_unknown.js";

/**
 * `read NAME`: one skill's instructions as a model is given them on activation
 * (`<skill_content>`, its folder named for the files it refers to), for an agent with no skills
 * of its own that `agents-md` told to run it. Only a skill a model may see is read: an untrusted,
 * withheld (an advisory revokes it) or operator-only one is `resource_unknown`, as an unknown name.
 */
export function runRead(input: CommandInput<{ readonly json: boolean }>): number {
  const { io } = input;
  const [name = ""] = input.positionals;
  const context = input.context();
  const visible = resourcesOf(context)
    .read(context.environment.cwd)
    .load("skill")
    .items.filter(isModelVisible);
  const skill = visible.find((one) => one.name === name);
  if (skill === undefined) {
    const unknown = unknownResource(
      "skill",
      name,
      visible,
      `no skill a model may use here is named "${name}"`,
    );
    if (input.values.json)
      printJson(io, context, { ok: false, diagnostics: [publicDiagnostic(unknown)] });
    else io.stderr(formatDiagnostic(unknown, context.style, painter(io.color)));
    return 1;
  }
  const content = renderSkillContent({
    name: skill.name,
    content: readSkillBody(skill),
    resourceBase: { kind: "directory", path: skill.baseDir },
  });
  if (input.values.json) printJson(io, context, { ok: true, name: skill.name, content });
  else io.stdout(`${content}\n`);
  return 0;
}
