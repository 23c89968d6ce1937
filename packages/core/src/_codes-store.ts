// Codes `store` produces: manifests, the state, the scope lock and the writers.
export const STORE_CODES = {
  backup_kept: {
    owner: "store",
    hint: "delete the kept folder once you have what you need from it",
  },
  component_cycle: { owner: "store", hint: "break the cycle in the components' requires" },
  component_duplicate: { owner: "store", hint: "declare each component once" },
  component_not_skill_file: { owner: "store", hint: "point a skill component at its SKILL.md" },
  component_outside_root: {
    owner: "store",
    hint: "move the component into the folder declared for its kind",
  },
  component_requires_duplicate: { owner: "store", hint: "list each requirement once" },
  component_requires_unknown: {
    owner: "store",
    hint: "name a component the package declares, or remove the requirement",
  },
  content_drift: {
    owner: "store",
    hint: "reinstall the package to restore it, or update it to keep your edits in a backup",
    hintWith:
      "skillshelf install --{scope} puts back the pinned files (your edits are kept in a backup); skillshelf update {id} --force takes the source's",
  },
  copy_missing: {
    owner: "store",
    hint: "reinstall the package, or remove it",
    hintWith: "skillshelf install --{scope} fetches it again from its locked source",
  },
  copy_unrecorded: {
    owner: "store",
    hint: "install the package properly, or remove the folder",
  },
  dependents: {
    owner: "store",
    hint: "change the dependents first, or install another copy of what they need",
    hintWith: "{change} the dependents first, or install another copy of what they need",
  },
  digest_mismatch: {
    owner: "store",
    hint: "the source's files changed since they were pinned; review the change, then update the pin",
    hintWith: "{copied} changed after it was reviewed; stage it again",
  },
  id_mismatch: { owner: "store", hint: "a copy's folder must be named after its package id" },
  identity_mismatch: {
    owner: "store",
    hint: "the source no longer holds what was pinned; update the index or pick another source",
  },
  journal_unreadable: {
    owner: "store",
    hint: "look at the file and the copy it names, move it out of the packages folder, then retry",
  },
  kind_change: { owner: "store", hint: "a package's kind cannot change in place; remove it first" },
  kind_mismatch: { owner: "store", hint: "reinstall the package" },
  leftover_removed: { owner: "store", hint: "nothing to do: an interrupted write was tidied" },
  lock_recovered: {
    owner: "store",
    hint: "nothing to do: a dead process's lock was taken over; its leftovers are reported",
  },
  library_symlinked: {
    owner: "store",
    hint: "a cloned repository may carry such a link: remove it or make it a plain folder, then retry",
  },
  link_symlink_refused: {
    owner: "store",
    hint: "the file system holding the agent's folder takes no symlinks; link with --copy",
  },
  link_to_disabled: {
    owner: "store",
    hint: "disable the package again to take the link away, or remove the link yourself",
    hintWith: "skillshelf disable its package --{scope} again to take it away, or remove {path}",
  },
  link_unrecorded: {
    owner: "store",
    hint: "link it again with skillshelf link to keep it, or remove it from the agent's folder",
    hintWith: "skillshelf link it --{scope} to keep it, or remove it",
  },
  locked: {
    owner: "store",
    hint: "another skillshelf is changing this scope; retry when it is done",
    hintWith: "retry when the other operation finishes; if {otherHost} runs none, remove {lock}",
  },
  lock_lost: {
    owner: "store",
    hint: "nothing more was written; review the scope and retry",
  },
  manifest_invalid: {
    owner: "store",
    hint: "run skillshelf validate on the package and fix what it reports",
  },
  manifest_json: { owner: "store", hint: "fix the JSON syntax of plugin.json" },
  manifest_missing: {
    owner: "store",
    hint: "add a plugin.json naming the package and its version",
  },
  key_ignored: { owner: "store", hint: "remove the key or check its spelling" },
  not_run: {
    owner: "store",
    hint: "nothing to do: Skillshelf keeps hooks and servers but never runs them",
  },
  not_installed: {
    owner: "store",
    hint: "check the id and scope with skillshelf list --kind packages",
  },
  operation_completed: { owner: "store", hint: "nothing to do: an interrupted write was finished" },
  operation_pending: {
    owner: "store",
    hint: "the next command that takes this scope's lock finishes or undoes it (any change, or skillshelf install with nothing named); until then agents may see what it left half done",
  },
  operation_rolled_back: {
    owner: "store",
    hint: "nothing to do: an interrupted write was undone; run it again if you still want it",
  },
  package_id_invalid: {
    owner: "store",
    hint: "name an installed package by its id, as skillshelf list --kind packages shows it",
  },
  package_missing: { owner: "store", hint: "name a folder holding plugin.json" },
  package_shape: {
    owner: "store",
    hint: "make the package a plugin, or keep only the resource its kind names",
  },
  path_escape: { owner: "store", hint: "name a file or folder inside the package" },
  path_invalid: {
    owner: "store",
    hint: "write package paths relative, with '/', staying inside the package",
  },
  path_kind: {
    owner: "store",
    hint: "name a folder where a folder is expected, a file where a file is",
  },
  skills_root: { owner: "store", hint: "keep skills in `skills/` (or `.` for a skill package)" },
  source_overlap: { owner: "store", hint: "stage the package somewhere else first" },
  stale_plan: {
    owner: "store",
    hint: "something changed since the plan was made; review a fresh plan",
  },
  state_changed: {
    owner: "store",
    hint: "something edited the state without the scope lock; review the file, then retry",
  },
  manifest_unsupported: {
    owner: "store",
    hint: "update Skillshelf to a version that reads this manifest, or install an older release of the package",
  },
  no_previous_version: {
    owner: "store",
    hint: "only an update keeps the version it replaced; install the version you want instead",
  },
  link_agent_unsupported: {
    owner: "store",
    hint: "pick an agent whose table row has a folder for that kind (skillshelf explain lists them)",
  },
  copy_stale: {
    owner: "store",
    hint: "what the copy in the agent's folder copies changed since: skillshelf install (with nothing named) or skillshelf link <name> --agent <agent> --copy makes it again",
    hintWith: "make the copy again: skillshelf install --{scope}",
  },
  link_changed: {
    owner: "store",
    hint: "the copy in the agent's folder was edited since it was made: move it away yourself, then run the command again",
    hintWith: "move what is at {path} away, then skillshelf install --{scope}",
  },
  link_conflict: {
    owner: "store",
    hint: "something Skillshelf did not make is in the way; it is left as it is: move it yourself, or link into another agent",
  },
  link_missing: {
    owner: "store",
    hint: "run skillshelf install (it recreates recorded links) or skillshelf link again",
    hintWith: "skillshelf install --{scope} makes it again",
  },
  link_repointed: {
    owner: "store",
    hint: "the link was replaced or points elsewhere: move what is there away yourself, then run the command again",
    hintWith: "move what is at {path} away, then skillshelf install --{scope}",
  },
  link_target_invalid: {
    owner: "store",
    hint: "link a skill or prompt template from this scope's library or one of its installed packages",
  },
  link_unknown: {
    owner: "store",
    hint: "skillshelf verify lists the links Skillshelf made; name one of those",
  },
  link_unsafe: {
    owner: "store",
    hint: "an agent folder that is a symlink or a file is never written into; make it a plain folder",
  },
  lock_updated: {
    owner: "store",
    hint: "nothing to do: the lock now matches what the interrupted operation committed",
  },
  lock_invalid: {
    owner: "store",
    hint: "fix lock.json (or restore it from version control); nothing overwrites it until then",
  },
  trust_file_invalid: {
    owner: "store",
    hint: "fix trust.json (or delete it and trust again what you want given to a model); nothing in it counts until then",
  },
  trust_file_unsafe: {
    owner: "store",
    hint: "make trust.json a plain file: move the link or folder aside",
  },
  lock_unsafe: {
    owner: "store",
    hint: "make lock.json a plain file: move the link or folder aside",
  },
  scope_file_too_large: {
    owner: "store",
    hint: "the scope holds more than its state and lock can record; split its packages between the user and the project scope",
  },
  state_invalid: {
    owner: "store",
    hint: "fix or move packages/state.json aside, then reinstall the scope's packages",
  },
  state_unreadable: {
    owner: "store",
    hint: "fix or move packages/state.json aside; its copies cannot be trusted until then",
  },
  state_unsafe: {
    owner: "store",
    hint: "make packages/state.json a plain file: move the link or folder aside",
  },
  target_unsafe: {
    owner: "store",
    hint: "installed packages must live in a real folder; replace the symlink with a folder",
    hintWith: "Skillshelf keeps a {kind} there; move what is there aside, then retry",
  },
  unchanged: { owner: "store", hint: "nothing to do: the copy is already as asked" },
  verification: {
    owner: "store",
    hint: "the change was committed but did not read back as expected; run skillshelf verify",
  },
} as const;
