import {
  type InvocationRefusalCode,
  type SkillInvocationResult,
  skillInvocationContext,
} from "@skillshelf/catalog-view";
import { createDiagnostic, isSkillshelfError, sameStamp } from "@skillshelf/core";
import { readSkillBody, type Skill, type SkillCommand } from "@skillshelf/skills-loader";

/**
 * The invocation of `command` against the skills one pass loaded: refused as
 * `skill_unavailable` when no trusted skill answers the name (`reason`: `disabled` when a disabled
 * copy holds one, `untrusted`, else `unknown`), `skill_not_user_invocable`, or `skill_changed`
 * when the skill the host listed (`listed`) is no longer the file that answers the name.
 */
export function invokeLoaded(
  command: SkillCommand,
  skills: readonly Skill[],
  options: { readonly listed?: Skill | undefined; readonly disabled: (name: string) => boolean },
): SkillInvocationResult {
  const { name } = command;
  const refused = (
    code: InvocationRefusalCode,
    message: string,
    details: Record<string, unknown> = {},
  ): SkillInvocationResult => ({
    ok: false,
    refusal: createDiagnostic("error", code, message, { details: { name, ...details } }),
  });
  const skill = skills.find((candidate) => candidate.name === name);
  if (skill === undefined || !skill.trusted) {
    const reason =
      skill !== undefined ? "untrusted" : options.disabled(name) ? "disabled" : "unknown";
    return refused("skill_unavailable", `no usable skill is named "${name}" (${reason})`, {
      reason,
      ...(skill === undefined ? {} : { path: skill.path }),
    });
  }
  if (!skill.userInvocable)
    return refused(
      "skill_not_user_invocable",
      `${skill.path} is not user-invocable: only the model may start it`,
      { path: skill.path },
    );
  const { listed } = options;
  const changed = () =>
    refused("skill_changed", `${skill.path} changed since it was listed`, { path: skill.path });
  if (
    listed !== undefined &&
    (listed.path !== skill.path ||
      !sameStamp(listed.stamp, skill.stamp) ||
      listed.hash !== skill.hash)
  )
    return changed();
  let content: string;
  try {
    content = readSkillBody(skill);
  } catch (error) {
    if (!isSkillshelfError(error)) throw error;
    if (error.code === "skill_changed") return changed();
    return refused("skill_unavailable", `${skill.path} cannot be read: ${error.message}`, {
      reason: error.code,
      path: skill.path,
    });
  }
  return {
    ok: true,
    invocation: skillInvocationContext(
      { name, content, resourceBase: { kind: "directory", path: skill.baseDir } },
      command.args,
      {
        source: skill.source,
        scope: skill.scope,
        path: skill.path,
        ...(skill.owner === undefined ? {} : { owner: skill.owner.id }),
      },
    ),
  };
}
