// Codes `validation` and the command line produce.
export const CHECK_CODES = {
  bound_skill_unavailable: {
    owner: "validation",
    hint: "add the skill to the package, or remove it from the agent's `skills`",
  },
  compatibility_invalid: { owner: "validation", hint: "write compatibility as text" },
  compatibility_too_long: { owner: "validation", hint: "shorten compatibility to 500 characters" },
  component_nested: {
    owner: "validation",
    hint: "keep one skill per folder; move the nested skill beside the others",
  },
  component_not_loaded: {
    owner: "validation",
    hint: "fix the component file so its loader accepts it; its own finding says how",
  },
  index_pin_mismatch: {
    owner: "validation",
    hint: "re-pin the row to the files' digest, or restore the files",
  },
  index_requirement_unresolved: {
    owner: "validation",
    hint: "add a row for the requirement, or make sure another index offers it",
  },
  index_source_invalid: {
    owner: "validation",
    hint: "fix the source folder so it can be digested",
  },
  index_source_missing: { owner: "validation", hint: "check the row's sourceUrl" },
  metadata_invalid: { owner: "validation", hint: "write metadata as text keys with text values" },
  description_placeholder: {
    owner: "validation",
    hint: "say in the description what the skill does and when to use it: a model chooses skills by it",
  },
  skill_catalog_invalid: {
    owner: "validation",
    hint: "fix the skills its finding names so they load as one catalog, one skill to a name",
  },
  backup_kept: { owner: "cli", hint: "look through the kept files, then delete them when done" },
  leftover_found: { owner: "cli", hint: "the next change in this scope removes it" },
  lock_stale: {
    owner: "cli",
    hint: "nothing to lose: the next change in that scope takes the lock over",
  },
  resource_exists: { owner: "cli", hint: "pick another name, or edit the one that is there" },
  change_declined: {
    owner: "lifecycle",
    hint: "nothing was changed; run the command again to review it anew",
  },
  confirmation_required: {
    owner: "lifecycle",
    hint: "review the plan, then run the command again with --yes (or --dry-run to only look); over MCP, use a client that can ask its user (elicitation)",
  },
  import_not_claude_plugin: {
    owner: "lifecycle",
    hint: "name a folder holding .claude-plugin/plugin.json; use skillshelf install for other sources",
  },
  lock_disagrees: {
    owner: "cli",
    hint: "skillshelf install makes the scope match its lock; commit the lock if the copy is what you want",
    hintWith: "skillshelf install --{scope} brings it to what the lock pins",
  },
  lock_entry_missing: {
    owner: "cli",
    hint: "install the package again so the lock records it, or remove it",
    hintWith:
      "remove it (skillshelf remove or unlink --{scope}), or install or link it again so the {scope} lock records it",
  },
  adopt_skipped: {
    owner: "lifecycle",
    hint: "its reason says why: a link (another tool's: adopt the folder it points at), taken (a package has that name: rename the folder), folder (not an agent's main skill folder: move it into one)",
  },
  agent_switch_missing: {
    owner: "lifecycle",
    hint: "this agent documents no per-skill switch (docs/agents.md): link or unlink the skill for it instead (skillshelf link, skillshelf unlink)",
  },
  agent_switch_unreadable: {
    owner: "lifecycle",
    hint: "fix the agent's settings file (it must parse as the agent reads it), then run the command again; nothing was written to it",
  },
  agent_unknown: {
    owner: "lifecycle",
    hint: "name an agent of the agent table (skillshelf explain --all lists them)",
  },
  profile_invalid: {
    owner: "lifecycle",
    hint: 'a profile has a lowercase name and names at least one skill; profiles.json holds { "version": 1, "profiles": { "<name>": ["<skill>", …] } } (skillshelf profile create writes it)',
  },
  profile_optional_linked: {
    owner: "lifecycle",
    hint: "a project link reaches every contributor: take it away (skillshelf unlink <skill> --project), then mark the skill optional; each contributor's profile then decides",
  },
  profile_unknown: {
    owner: "lifecycle",
    hint: "skillshelf profile list shows the profiles of this project and of your user library; skillshelf profile create makes one",
  },
  npm_project_missing: {
    owner: "lifecycle",
    hint: "run skillshelf sync-npm in a project with a package.json, after npm install",
  },
  agents_md_markers_invalid: {
    owner: "cli",
    hint: "the file holds one skillshelf marker without its pair, or two blocks: remove the stray marker lines (or the whole block) and run skillshelf agents-md again",
  },
  resource_unknown: {
    owner: "cli",
    hint: "skillshelf list --kind <kind> shows the names in use",
    hintWith: "similar: {similar}",
  },
  source_not_added: {
    owner: "cli",
    hint: "skillshelf sources list prints the remote sources by URL",
  },
  usage_extra_argument: {
    owner: "cli",
    hint: "remove the extra arguments; skillshelf <command> --help shows what it takes",
  },
  usage_invalid_value: {
    owner: "cli",
    hint: "give a value the option accepts; skillshelf <command> --help lists them",
    hintWith: "did you mean {suggestion}?",
  },
  usage_value_starts_with_dash: {
    owner: "cli",
    hint: 'write --<option>=<value> for a value that starts with "-"',
  },
  usage_missing_argument: {
    owner: "cli",
    hint: "add what the command needs; skillshelf <command> --help shows its arguments",
  },
  usage_unknown_command: {
    owner: "cli",
    hint: "skillshelf --help lists the commands",
    hintWith: "did you mean skillshelf {suggestion}?",
  },
  usage_unknown_option: {
    owner: "cli",
    hint: "skillshelf <command> --help lists the command's options",
    hintWith: "did you mean {suggestion}?",
  },
} as const;
