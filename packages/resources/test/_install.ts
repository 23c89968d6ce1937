import {
  digestTree,
  type Environment,
  type PackageScope,
  resolveEnvironment,
  type TreeDigest,
} from "@skillshelf/core";
import { observeCopyFacts } from "@skillshelf/store";
import { installPackage, setEnabled } from "@skillshelf/store/writers";
import {
  packageTree,
  skillFile,
  type Tree,
  testdir,
  testEnvironment,
  writeTree,
} from "@skillshelf/test-utils";

/** A fresh home, user library and project (a folder holding `.skillshelf/`, so it is its own project). */
export function resourcesEnvironment(): Environment {
  const { home, cwd, configDir } = testEnvironment();
  writeTree(cwd, { ".skillshelf/skills": null });
  return resolveEnvironment({ home, cwd, configDir, env: {} });
}

/** A plugin `id` holding one skill, prompt, agent and fleet (each named `<id>-…`), a script component, and `files`. */
export function toolkitTree(id: string, files: Tree = {}): Tree {
  const manifest = JSON.parse(String(packageTree({ id })["plugin.json"])) as Record<
    string,
    unknown
  >;
  manifest.extensions = {
    skillshelf: {
      manifestVersion: 1,
      kind: "plugin",
      resources: { skills: "skills", prompts: "prompts", agents: "agents", fleets: "fleets" },
      components: [{ kind: "script", id: "lint", path: "tools/lint.sh" }],
    },
  };
  return {
    "plugin.json": `${JSON.stringify(manifest, null, 2)}\n`,
    [`skills/${id}-skill/SKILL.md`]: skillFile(`${id}-skill`, `The ${id} skill.`),
    [`prompts/${id}-prompt.md`]: `---\ndescription: The ${id} prompt.\n---\nReview $1 with \${pluginRoot}/notes.md.\n`,
    [`agents/${id}-agent.md`]: `---\nname: ${id}-agent\ndescription: The ${id} agent.\n---\nRun \${component:script:lint} first.\n`,
    [`fleets/${id}-fleet.md`]: `---\nversion: 1\nname: ${id}-fleet\ndescription: The ${id} fleet.\nsteps:\n  - id: one\n    agent: ${id}-agent\n---\nDo {{thing}}.\n`,
    "tools/lint.sh": { content: "#!/bin/sh\n", mode: 0o755 },
    ...files,
  };
}

/** Install the package folder `tree` into `scope` as a plan would (trust follows its format); returns its digest. */
export function installTree(environment: Environment, scope: PackageScope, tree: Tree): TreeDigest {
  const dir = testdir(tree);
  const digest = digestTree(dir);
  const manifest = JSON.parse(String(tree["plugin.json"] ?? tree[".claude-plugin/plugin.json"]));
  const id = String(manifest.name);
  installPackage({
    environment,
    scope,
    staged: { dir, digest: digest.digest },
    origin: { source: { type: "local", path: dir } },
    reviewed: observeCopyFacts({ environment, scope, id }),
  });
  return digest;
}

/** Switch an installed copy off. */
export function disable(environment: Environment, scope: PackageScope, id: string): void {
  setEnabled({
    environment,
    scope,
    id,
    enabled: false,
    reviewed: observeCopyFacts({ environment, scope, id }),
  });
}
