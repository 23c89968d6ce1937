// Codes `publish` produces: what is refused before anything is written, and where.
export const PUBLISH_CODES = {
  publish_destination_invalid: {
    owner: "publish",
    hint: "name a static site folder (site:<dir>), an OCI repository (oci://host/repository[:tag]) or a git repository (git+<url or path>)",
  },
  publish_destination_unreadable: {
    owner: "publish",
    hint: "the destination holds a .well-known/agent-skills/index.json Skillshelf cannot read; move it aside or fix it",
  },
  publish_invalid: {
    owner: "publish",
    hint: "fix what skillshelf validate --strict reports for the folder, then publish again",
  },
  publish_tag_exists: {
    owner: "publish",
    hint: "a published version does not change: raise the skill's metadata.version and publish again",
  },
  publish_index_unsupported: {
    owner: "publish",
    hint: "--index names the index in a git repository being published to; a site writes its own .well-known index, and an OCI registry has none",
  },
  publish_nothing: {
    owner: "publish",
    hint: "name a folder holding a SKILL.md, skill folders or a plugin.json with skills",
  },
} as const;
