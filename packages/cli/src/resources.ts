import { createResources, type Resources } from "@skillshelf/resources";
import type { SkillCache } from "@skillshelf/skills-loader";
import type { CommandContext } from "./context.js";

/**
 * The read contract the read commands go through, for the command's environment. Only the
 * commands that read resources import it, so the others start without the loaders. `cache`: the
 * skills a run before this one kept (`_skill-cache.ts`).
 */
export function resourcesOf(context: CommandContext, cache?: SkillCache): Resources {
  const { home, configDir, env } = context.environment;
  return createResources({ environment: { home, configDir, env }, cache });
}
