import { join } from "node:path";
import { type Tree, testdir } from "./testdir.js";

/** A home folder and a project folder for one test, never the real ones. */
export interface TestEnvironment {
  readonly home: string;
  readonly cwd: string;
  readonly configDir: string;
  readonly env: Record<string, string | undefined>;
}

/**
 * Create a fake home (user library at `<home>/.config/skillshelf`) and a project folder, each
 * filled from its tree. `env` is empty, so nothing from the real environment leaks in.
 */
export function testEnvironment(trees: { home?: Tree; project?: Tree } = {}): TestEnvironment {
  const home = testdir(trees.home ?? {});
  const cwd = testdir(trees.project ?? {});
  return { home, cwd, configDir: join(home, ".config", "skillshelf"), env: {} };
}

/** A minimal valid `SKILL.md` text with the given frontmatter lines added after name and description. */
export function skillFile(
  name: string,
  description: string,
  extra = "",
  body = `# ${name}\n\nSteps.\n`,
): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}`;
}
