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
  skill_catalog_invalid: {
    owner: "validation",
    hint: "fix the skills its finding names so the package's catalog loads",
  },
  skill_unknown: { owner: "cli", hint: "skillshelf list shows the names in use" },
} as const;
