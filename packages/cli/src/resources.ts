import { createResources, type Resources } from "@skillshelf/resources";
import type { CommandContext } from "./context.js";

/**
 * The read contract the read commands go through, for the command's environment. Only the
 * commands that read resources import it, so the others start without the loaders.
 */
export function resourcesOf(context: CommandContext): Resources {
  const { home, configDir, env } = context.environment;
  return createResources({ environment: { home, configDir, env } });
}
