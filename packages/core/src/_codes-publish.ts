// Codes `publish` produces: what is refused before anything is written, and where.
export const PUBLISH_CODES = {
  publish_destination_invalid: {
    owner: "publish",
    hint: "name a folder for a static site (site:<dir>)",
  },
  publish_destination_unreadable: {
    owner: "publish",
    hint: "the destination holds a .well-known/agent-skills/index.json Skillshelf cannot read; move it aside or fix it",
  },
  publish_invalid: {
    owner: "publish",
    hint: "fix what skillshelf validate --strict reports for the folder, then publish again",
  },
  publish_nothing: {
    owner: "publish",
    hint: "name a folder holding a SKILL.md, skill folders or a plugin.json with skills",
  },
} as const;
