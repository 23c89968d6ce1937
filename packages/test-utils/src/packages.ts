import { skillFile } from "./environment.js";
import type { Tree } from "./testdir.js";

/** What `packageTree` writes. */
export interface PackageTreeOptions {
  readonly id: string;
  readonly version?: string;
  /** `plugin` (default) or `skill`: a skill package is one `SKILL.md` at the package root. */
  readonly kind?: "plugin" | "skill";
  readonly requires?: readonly string[];
  /** Skill names, each written as `skills/<name>/SKILL.md` (plugins only). Default: one named after the id. */
  readonly skills?: readonly string[];
  /** Prompt names, each written as `prompts/<name>.md` (plugins only). */
  readonly prompts?: readonly string[];
  /** Extra `extensions.skillshelf` keys, or `null` to leave the block out. */
  readonly extension?: Readonly<Record<string, unknown>> | null;
  /** More files, merged last. */
  readonly files?: Tree;
}

/** The tree of a valid package folder in our format, ready for `testdir` or `writeTree`. */
export function packageTree(options: PackageTreeOptions): Tree {
  const { id, version = "1.0.0", kind = "plugin", requires, prompts = [] } = options;
  const tree: Record<string, Tree[string]> = {};
  const block: Record<string, unknown> = { manifestVersion: 1, kind };
  if (requires !== undefined) block.requires = requires;
  if (kind === "skill") {
    block.resources = { skills: "." };
    block.components = [{ kind: "skill", id, path: "SKILL.md" }];
    tree["SKILL.md"] = skillFile(id, `The ${id} skill.`);
  } else {
    for (const skill of options.skills ?? [id])
      tree[`skills/${skill}/SKILL.md`] = skillFile(skill, `The ${skill} skill.`);
    for (const prompt of prompts)
      tree[`prompts/${prompt}.md`] =
        `---\ndescription: The ${prompt} prompt.\n---\nDo ${prompt} with $ARGUMENTS.\n`;
    if (prompts.length > 0) block.resources = { prompts: "prompts" };
  }
  const manifest: Record<string, unknown> = {
    name: id,
    version,
    description: `The ${id} package.`,
    license: "MIT",
  };
  if (options.extension !== null)
    manifest.extensions = { skillshelf: { ...block, ...options.extension } };
  tree["plugin.json"] = `${JSON.stringify(manifest, null, 2)}\n`;
  return { ...tree, ...options.files };
}
