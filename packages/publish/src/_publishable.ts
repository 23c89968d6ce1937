import { join } from "node:path";
import type { Diagnostic, EnvironmentInput } from "@skillshelf/core";
import { readCollection, type StagedSource, stageSource } from "@skillshelf/sources";
import { validateCollection } from "@skillshelf/validation";

/** One skill to publish: its name and description, and a staged copy of its folder with its tree digest. */
export interface PublishedSkill {
  readonly name: string;
  readonly description: string;
  /** Its frontmatter's version (`0.0.0` when it gives none). */
  readonly version: string;
  readonly staged: StagedSource;
}

/**
 * The skills of `folder` (one skill, a collection, or a package's skills, found as `install`
 * finds them), when strict validation finds no error; else the findings, and nothing staged.
 */
export async function publishableSkills(
  folder: string,
  options: {
    readonly environment?: EnvironmentInput | undefined;
    readonly tempDir?: string | undefined;
  },
): Promise<
  | {
      readonly ok: true;
      readonly skills: readonly PublishedSkill[];
      readonly diagnostics: readonly Diagnostic[];
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] }
> {
  const checked = validateCollection(folder, { mode: "strict", environment: options.environment });
  if (checked === undefined)
    return {
      ok: false,
      diagnostics: [
        // why a folder that looks like a skill was not one (collection_skill_invalid, …)
        ...readCollection(folder).diagnostics,
        {
          code: "publish_nothing",
          severity: "error",
          message: `${folder} holds no skill to publish`,
          path: folder,
        },
      ],
    };
  if (!checked.valid)
    return {
      ok: false,
      diagnostics: [
        ...checked.diagnostics,
        {
          code: "publish_invalid",
          severity: "error",
          message: `${folder} does not pass strict validation; nothing was published`,
          path: folder,
        },
      ],
    };
  const skills: PublishedSkill[] = [];
  try {
    for (const skill of readCollection(folder).skills)
      skills.push({
        name: skill.name,
        description: skill.description,
        version: skill.version,
        staged: await stageSource(
          { type: "local", path: join(folder, skill.path) },
          { tempDir: options.tempDir },
        ),
      });
  } catch (error) {
    for (const skill of skills) skill.staged.release();
    throw error;
  }
  return { ok: true, skills, diagnostics: checked.diagnostics };
}
