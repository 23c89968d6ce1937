// Codes the name-clash resolver and the loaders (skills, prompts, recipes) produce.
export const LOADER_CODES = {
  collision: {
    owner: "collision",
    hint: "rename one copy, or remove the one you do not want (skillshelf show <name> lists them)",
  },
  duplicate_file: {
    owner: "collision",
    hint: "nothing to do: the same file is reachable from two roots and is read once",
  },
  description_invalid: { owner: "skills-loader", hint: "write the description as quoted text" },
  untrusted_hidden: {
    owner: "skills-loader",
    hint: 'other agents\' folders are discovery-only: a harness that is one of those agents passes host (an agent id, e.g. host: "claude-code") to read its own folders as trusted; otherwise import what a model may see, or trust it (an imported plugin: skillshelf trust ID)',
    hintWith:
      'the folders of {sources} are discovery-only: a harness that is one of them passes host (e.g. host: "{suggestion}") to read its own folders as trusted; otherwise import or trust what a model may see',
  },
  description_missing: {
    owner: "skills-loader",
    hint: "add a `description:` saying what the skill does and when to use it",
  },
  description_too_long: {
    owner: "skills-loader",
    hint: "shorten the description to 1,024 characters; move detail into the body",
  },
  file_large: {
    owner: "skills-loader",
    hint: "move detail into files next to SKILL.md and point to them from the body",
  },
  key_case: { owner: "skills-loader", hint: "write the key in lowercase, as the format spells it" },
  loose_file_skipped: {
    owner: "skills-loader",
    hint: "put each skill in a folder of its own, as <name>/SKILL.md",
  },
  name_invalid: {
    owner: "skills-loader",
    hint: "use lowercase letters, digits and single hyphens, as the folder is named",
  },
  name_mismatch: {
    owner: "skills-loader",
    hint: "make the name and the folder (or file) name equal",
  },
  name_missing: { owner: "skills-loader", hint: "add a `name:` equal to the folder name" },
  name_too_long: { owner: "skills-loader", hint: "shorten the name to 64 characters" },
  package_inactive: {
    owner: "skills-loader",
    hint: "enable the package (skillshelf enable <id>), or copy the skill into your library",
  },
  path_empty: { owner: "skills-loader", hint: "name a SKILL.md or a folder holding one" },
  path_missing: { owner: "skills-loader", hint: "check the path" },
  requirement_missing: {
    owner: "skills-loader",
    hint: "install the skill it needs, or remove the requirement",
    hintWith:
      "install {missing} first (plan again with --with-requirements), or remove the requirement",
  },
  skill_name_unaddressable: {
    owner: "skills-loader",
    hint: "rename the skill and its folder to one word of lowercase letters, digits and hyphens",
  },
  skill_name_unaddressable_fallback: {
    owner: "skills-loader",
    hint: "make the name one word, equal to the folder name, so /skill <name> can run it",
  },
  skill_changed: { owner: "skills-loader", hint: "reload the skills, then activate it again" },
  skill_file_name: { owner: "skills-loader", hint: "rename the file to SKILL.md" },
  tool_unknown: {
    owner: "skills-loader",
    hint: "check the tool's name against the tools the host offers",
  },
  tools_unresolved: {
    owner: "skills-loader",
    hint: "pass the host's tool names so allowed-tools can be checked",
  },
  prompt_unavailable: {
    owner: "prompts-loader",
    hint: "fix the template as its reason says; skillshelf validate shows the details",
  },
  prompt_unknown: {
    owner: "prompts-loader",
    hint: "skillshelf list --kind prompts shows the template names",
  },
  prompt_untrusted: {
    owner: "prompts-loader",
    hint: "pass --allow-untrusted to expand a template from another agent's folder",
  },
  body_empty: { owner: "recipes-loader", hint: "write the agent's instructions in the body" },
  skill_unresolved: {
    owner: "recipes-loader",
    hint: "install or add the skill the agent binds, or remove it from `skills`",
  },
  step_cycle: { owner: "recipes-loader", hint: "break the cycle in the steps' dependencies" },
  step_dependency_unknown: {
    owner: "recipes-loader",
    hint: "name the id of a step of this fleet, or remove the dependency",
  },
  step_duplicate: { owner: "recipes-loader", hint: "give every step an id of its own" },
  version_unsupported: {
    owner: "recipes-loader",
    hint: "write a version this Skillshelf reads, or update Skillshelf",
  },
} as const;
