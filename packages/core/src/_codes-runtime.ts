// Codes of the layers above the store: package references, the inventory and the lifecycle.
export const RUNTIME_CODES = {
  package_reference_unknown: {
    owner: "store",
    hint: "declare the component in the package's manifest, or fix the reference's kind and id",
  },
  already_installed: {
    owner: "lifecycle",
    hint: "nothing to do: the scope already holds exactly this package",
  },
  package_invalid: {
    owner: "lifecycle",
    hint: "run skillshelf validate on the source to see each problem, and fix the package",
  },
  audit_refused: {
    owner: "lifecycle",
    hint: "read each finding (skillshelf audit on the source shows them all); if you accept what it does, approve its rules by id with --approve RULE, or answer yes on a terminal",
  },
  audit_approval_stale: {
    owner: "lifecycle",
    hint: "the files are no longer the ones approved: reinstall the package to put them back (skillshelf install restores the locked files), or audit the new files and install them with --approve",
  },
  audit_findings: {
    owner: "lifecycle",
    hint: "read the findings with skillshelf audit on the copy's folder; remove the package, or install it again with --approve RULE to record that you accept them",
  },
  trust_revoked: {
    owner: "resources",
    hint: "its content changed since it was trusted: read it again (skillshelf audit on its folder), then skillshelf trust it again, or untrust it",
  },
  trust_target_unknown: {
    owner: "lifecycle",
    hint: "name an installed package's id, an agent id (claude-code, cursor, …), or the path of another agent's folder in this scope; skillshelf explain lists the folders read",
  },
  installed_differs: {
    owner: "lifecycle",
    hint: "use update to change an installed copy, or --force to replace it",
  },
  copy_invalid: {
    owner: "lifecycle",
    hint: "repair the copy with update --force, or remove it and install it again",
  },
  link_no_agents: {
    owner: "lifecycle",
    hint: "name the agents with --agent; their folders are made on the first link",
  },
  link_source_unknown: {
    owner: "lifecycle",
    hint: "link a skill or prompt template of this scope's library or installed packages (skillshelf list shows them); install it first if it is elsewhere",
  },
  local_changes: {
    owner: "lifecycle",
    hint: "keep your edits elsewhere first; --force replaces them (the changed files are kept as a backup)",
  },
  lock_ahead: {
    owner: "lifecycle",
    hint: "run skillshelf install with no package named to install what the lock lists, then retry",
    hintWith: "skillshelf install --{scope} makes the scope match its lock",
  },
  lock_frozen: {
    owner: "lifecycle",
    hint: "this change would alter lock.json; run it without --frozen and commit the new lock",
  },
  collection_choice_required: {
    owner: "lifecycle",
    hint: "pick with --skill a,b: '*' for every skill, 'prompt:*' or 'agent:*' for every prompt template or agent recipe",
  },
  marketplace_missing: {
    owner: "lifecycle",
    hint: "name a repository with a .claude-plugin/marketplace.json, or install it without --plugin",
  },
  plugin_unknown: {
    owner: "lifecycle",
    hint: "pick one of the plugins the marketplace lists (they are in the details)",
  },
  plugin_choice_required: {
    owner: "lifecycle",
    hint: "install a plugin of its marketplace with --plugin NAME (they are in the details)",
  },
  collection_empty: {
    owner: "lifecycle",
    hint: "name a folder or repository holding a SKILL.md, skills/<name>/SKILL.md or a plugin.json",
  },
  install_not_linked: {
    owner: "lifecycle",
    hint: "link them into your agents (skillshelf link <name> --agent <agent>), install with --agent, or serve them with skillshelf mcp",
    hintWith:
      "link them into your agents: skillshelf link {names} --agent {agents} (or install with --agent {agents}), or serve them with skillshelf mcp",
  },
  collection_passed_over: {
    owner: "lifecycle",
    hint: "install them by naming their folder (<source>//<folder>), or look everywhere with --full-depth",
    hintWith:
      "install them by naming their folder ({source}), or look everywhere with --full-depth",
  },
  collection_skill_unknown: {
    owner: "lifecycle",
    hint: "pick one of the skills the source offers (they are listed)",
  },
  package_ambiguous: {
    owner: "lifecycle",
    hint: "name the package as kind:name",
  },
  package_unknown: {
    owner: "lifecycle",
    hint: "check the name with skillshelf search, or name a folder, git URL or archive URL",
  },
  refused: {
    owner: "lifecycle",
    hint: "resolve the refusal and review a fresh plan",
  },
  requirement_cycle: {
    owner: "lifecycle",
    hint: "the packages require each other in a circle; fix the requires in their manifests or index rows",
  },
  requirement_inactive: {
    owner: "lifecycle",
    hint: "enable or repair the required packages first",
  },
  source_unavailable: {
    owner: "lifecycle",
    hint: "the index that installed it no longer offers it; add that index again or reinstall from a source",
  },
  up_to_date: {
    owner: "lifecycle",
    hint: "nothing to do: the source still holds what is installed",
  },
  writer: {
    owner: "lifecycle",
    hint: "inspect the diagnostics and recovery paths, then review a fresh plan",
  },
  inventory_truncated: {
    owner: "inventory",
    hint: "narrow the inventory with a kind, query or ref filter to see the rows past the cap",
  },
} as const;
