import type { AgentDefinition, AgentViewRoot } from "./agents.js";

const project = (path: string): AgentViewRoot => ({ base: "project", path });
const home = (path: string): AgentViewRoot => ({ base: "home", path });

/**
 * Agents whose folders were checked against their own documentation or source, or a
 * capability catalogue drawn from it, beyond the peer's table (ecosystem notes §1.2–§1.4). Where a
 * row's sources disagree it follows the agent's code and says so in `source`; what none documents
 * stays unknown.
 */
export const VERIFIED_AGENTS: readonly AgentDefinition[] = [
  {
    id: "cursor",
    label: "Cursor",
    projectFolders: "root",
    userSkillRoot: ".cursor/skills",
    projectSkillRoot: ".cursor/skills",
    userPromptRoot: ".cursor/commands",
    projectPromptRoot: ".cursor/commands",
    // symlinked skills are not listed (vercel-labs/skills#105, vercel-labs/agent-skills#82)
    symlinks: "not-followed",
    view: {
      skillRoots: [
        project(".agents/skills"),
        project(".cursor/skills"),
        project(".claude/skills"),
        project(".codex/skills"),
        home(".cursor/skills"),
        home(".claude/skills"),
        home(".codex/skills"),
      ],
      order: "unknown",
      depth: "unknown",
      source:
        "https://cursor.com/docs/context/skills; symlinked skill folders are not listed: https://github.com/vercel-labs/skills/issues/105",
    },
  },
  {
    id: "gemini-cli",
    label: "Gemini CLI (retired 2026-06-18)",
    projectFolders: "root",
    userSkillRoot: ".gemini/skills",
    projectSkillRoot: ".gemini/skills",
    symlinks: "followed",
    view: {
      // workspace beats user; within one, .agents/skills beats .gemini/skills
      skillRoots: [
        project(".agents/skills"),
        project(".gemini/skills"),
        home(".agents/skills"),
        home(".gemini/skills"),
      ],
      order: "documented",
      depth: "unknown",
      source: "https://geminicli.com/docs/cli/using-agent-skills/",
    },
  },
  {
    id: "antigravity",
    label: "Antigravity",
    projectFolders: "root",
    userSkillRoot: ".gemini/antigravity/skills",
    // enumerating linked skill folders is reported broken (amtiYo/agents#22)
    symlinks: "not-followed",
    view: {
      skillRoots: [project(".agents/skills"), home(".gemini/antigravity/skills")],
      order: "unknown",
      depth: "unknown",
      source:
        "https://github.com/google-gemini/gemini-cli/blob/main/docs/resources/migrating-to-antigravity-cli.md and https://www.npmjs.com/package/skills/v/1.7.4",
    },
  },
  {
    id: "antigravity-cli",
    label: "Antigravity CLI",
    aliases: ["agy"],
    projectFolders: "root",
    userSkillRoot: ".gemini/antigravity-cli/skills",
    symlinks: "not-followed",
    view: {
      skillRoots: [project(".agents/skills"), home(".gemini/antigravity-cli/skills")],
      order: "unknown",
      depth: "unknown",
      source:
        "https://github.com/google-gemini/gemini-cli/blob/main/docs/resources/migrating-to-antigravity-cli.md",
    },
  },
  {
    id: "cline",
    label: "Cline",
    projectFolders: "root",
    userSkillRoot: ".cline/skills",
    projectSkillRoot: ".cline/skills",
    // directory symlinks are skipped (Dirent.isDirectory); the fix, cline/cline#11118, was closed
    symlinks: "not-followed",
    view: {
      // global overrides project (cline/cline#8335); .agents/skills is the code's default (#9074)
      skillRoots: [
        home(".agents/skills"),
        home(".cline/skills"),
        project(".agents/skills"),
        project(".cline/skills"),
        project(".clinerules/skills"),
        project(".claude/skills"),
      ],
      order: "documented",
      depth: "unknown",
      source:
        "https://docs.cline.bot/customization/skills and https://github.com/cline/cline/pull/9074 (the code reads .agents/skills, the docs do not say so yet)",
    },
  },
  {
    id: "amp",
    label: "Amp",
    projectFolders: "root",
    userSkillRoot: ".config/agents/skills",
    symlinks: "followed",
    view: {
      skillRoots: [
        project(".agents/skills"),
        project(".claude/skills"),
        home(".config/agents/skills"),
        home(".config/amp/skills"),
        home(".claude/skills"),
      ],
      order: "unknown",
      depth: "unknown",
      source:
        "https://ampcode.com/manual, as github.com/OpenScribbler/syllago cli/internal/provider/amp.go records it",
    },
  },
  {
    id: "droid",
    label: "Droid (Factory)",
    aliases: ["factory"],
    projectFolders: "root",
    userSkillRoot: ".factory/skills",
    projectSkillRoot: ".factory/skills",
    userPromptRoot: ".factory/commands",
    projectPromptRoot: ".factory/commands",
    symlinks: "followed",
    view: {
      skillRoots: [project(".factory/skills"), project(".agents/skills"), home(".factory/skills")],
      order: "unknown",
      depth: "unknown",
      source:
        "https://docs.factory.ai, as github.com/OpenScribbler/syllago cli/internal/provider/factory_droid.go records it (the peer's table misses .factory/skills)",
    },
  },
  {
    id: "windsurf",
    label: "Windsurf",
    projectFolders: "root",
    userSkillRoot: ".codeium/windsurf/skills",
    projectSkillRoot: ".windsurf/skills",
    symlinks: "followed",
    view: {
      skillRoots: [
        project(".windsurf/skills"),
        project(".agents/skills"),
        home(".codeium/windsurf/skills"),
        home(".agents/skills"),
      ],
      order: "unknown",
      depth: "unknown",
      source:
        "https://github.com/OpenScribbler/syllago (cli/internal/provider/windsurf.go) and https://github.com/microsoft/apm (its targets matrix)",
    },
  },
  {
    id: "kiro-cli",
    label: "Kiro",
    aliases: ["kiro"],
    projectFolders: "root",
    userSkillRoot: ".kiro/skills",
    projectSkillRoot: ".kiro/skills",
    symlinks: "followed",
    view: {
      skillRoots: [project(".kiro/skills"), home(".kiro/skills")],
      order: "unknown",
      depth: "unknown",
      source:
        "https://kiro.dev/docs (custom agents list skills in resources: skill://.kiro/skills/**/SKILL.md), as the microsoft/apm targets matrix records it",
    },
  },
  {
    id: "roo",
    label: "Roo Code",
    projectFolders: "root",
    userSkillRoot: ".roo/skills",
    projectSkillRoot: ".roo/skills",
    userPromptRoot: ".roo/commands",
    projectPromptRoot: ".roo/commands",
    symlinks: "followed",
    view: {
      skillRoots: [project(".roo/skills"), project(".agents/skills"), home(".roo/skills")],
      order: "unknown",
      depth: "unknown",
      source:
        "https://docs.roocode.com, as github.com/OpenScribbler/syllago cli/internal/provider/roocode.go records it",
    },
  },
  {
    id: "hermes-agent",
    label: "Hermes Agent",
    projectFolders: "root",
    userSkillRoot: ".hermes/skills",
    projectSkillRoot: ".hermes/skills",
    // its skill_manage tool cannot find symlinked skills (NousResearch/hermes-agent#35184)
    symlinks: "not-followed",
    view: {
      skillRoots: [project(".hermes/skills"), home(".hermes/skills")],
      order: "unknown",
      depth: "unknown",
      source: "https://github.com/NousResearch/hermes-agent/issues/35184",
    },
  },
  {
    id: "openclaw",
    label: "OpenClaw",
    projectFolders: "root",
    userSkillRoot: ".openclaw/skills",
    projectSkillRoot: "skills",
    symlinks: "unknown",
    view: {
      // workspace beats managed beats bundled
      skillRoots: [project("skills"), home(".openclaw/skills")],
      order: "documented",
      depth: "unknown",
      source: "https://docs.openclaw.ai/tools/clawhub",
    },
  },
  {
    id: "crush",
    label: "Crush",
    projectFolders: "root",
    userSkillRoot: ".config/crush/skills",
    projectSkillRoot: ".crush/skills",
    symlinks: "unknown",
    view: {
      skillRoots: [project(".crush/skills"), home(".config/crush/skills")],
      order: "unknown",
      depth: "unknown",
      source:
        "https://www.npmjs.com/package/skills/v/1.7.4 (github.com/OpenScribbler/syllago records ~/.crush/skills instead; not checked at the source)",
    },
  },
  {
    id: "eve",
    label: "Eve",
    projectFolders: "root",
    projectSkillRoot: "agent/skills",
    // it rewrites skill frontmatter, so it always gets copies
    symlinks: "not-followed",
    view: {
      skillRoots: [project("agent/skills")],
      order: "unknown",
      depth: "unknown",
      source: "https://www.npmjs.com/package/skills/v/1.7.4 (docs/commands.md)",
    },
  },
  {
    id: "goose",
    label: "Goose",
    projectFolders: "root",
    projectSkillRoot: ".goose/skills",
    userSkillRoot: ".config/goose/skills",
    symlinks: "unknown",
    view: {
      // its docs list six folders, a later one winning a name: here the winner first
      skillRoots: [
        project(".agents/skills"),
        project(".goose/skills"),
        project(".claude/skills"),
        home(".config/goose/skills"),
        home(".config/agents/skills"),
        home(".claude/skills"),
      ],
      order: "documented",
      depth: "unknown",
      source:
        "https://block.github.io/goose/docs/guides/context-engineering/using-skills (Skill Locations)",
    },
  },
];
