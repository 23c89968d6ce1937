import type { AgentDefinition } from "./agents.js";

/**
 * The agents whose folders, order and rules are documented by the agent itself (its docs or its
 * source), the first six of the table in their long-standing order.
 */
export const DOCUMENTED_AGENTS: readonly AgentDefinition[] = [
  {
    id: "claude-code",
    label: "Claude Code",
    projectFolders: "root",
    userSkillRoot: ".claude/skills",
    projectSkillRoot: ".claude/skills",
    userPromptRoot: ".claude/commands",
    projectPromptRoot: ".claude/commands",
    userAgentRoot: ".claude/agents",
    projectAgentRoot: ".claude/agents",
    symlinks: "followed",
    view: {
      // personal beats project, as Claude Code documents it
      order: "documented",
      skillRoots: [
        { base: "home", path: ".claude/skills" },
        { base: "project", path: ".claude/skills" },
      ],
      depth: "one",
      rules: { strictName: false, requireName: false },
      format: "xml",
      budget: {
        chars: 8000,
        over: "names-only",
        perSkill: 60,
        source:
          "https://code.claude.com/docs/en/skills and the strings of @anthropic-ai/claude-code-linux-x64 2.1.332 on npm: about 1% of the context window (skillListingBudgetFraction 0.01, ~8,000 characters at 200k); SLASH_COMMAND_TOOL_CHAR_BUDGET overrides it; past it descriptions are shortened, then only names are listed",
      },
      source: "https://code.claude.com/docs/en/skills",
    },
  },
  {
    id: "codex",
    label: "Codex",
    projectFolders: "root",
    // its project skills are the shared `.agents/skills` (the `agents` row's own folder)
    userSkillRoot: ".codex/skills",
    userPromptRoot: ".codex/prompts",
    projectPromptRoot: ".codex/prompts",
    symlinks: "followed",
    // bundled system skills, unpacked by Codex (developers.openai.com/codex/skills: SYSTEM scope)
    skillDotFolders: [".system"],
    view: {
      order: "documented",
      skillRoots: [
        { base: "cwd-to-project", path: ".agents/skills" },
        { base: "home", path: ".agents/skills" },
        { base: "home", path: ".codex/skills" },
      ],
      depth: "nested",
      rules: { strictName: false, requireName: false, maxDescription: 1024 },
      settings: {
        files: [{ base: "home", path: ".codex/config.toml" }],
        read: false,
        note: "[[skills.config]] entries with enabled = false hide a skill",
        switch: {
          file: { base: "home", path: ".codex/config.toml" },
          shape: "codex-skills-config",
          source:
            "github.com/openai/codex codex-rs config: SkillsConfig.config, [[skills.config]] with a name or path selector and enabled (read from the user's config, not a project's)",
        },
      },
      format: "markdown",
      budget: {
        chars: 8000,
        over: "drop",
        perSkill: 20,
        source:
          "https://developers.openai.com/codex/skills and github.com/openai/codex codex-rs/core/src/skills: about 2% of the context window, or 8,000 characters when it is unknown; descriptions are shortened first, then skills are omitted with a warning",
      },
      source:
        "https://developers.openai.com/codex/skills and github.com/openai/codex codex-rs/core/src/skills",
    },
  },
  {
    id: "opencode",
    label: "OpenCode",
    projectFolders: "root",
    userSkillRoot: ".config/opencode/skills",
    projectSkillRoot: ".opencode/skills",
    userPromptRoot: ".config/opencode/command",
    projectPromptRoot: ".opencode/command",
    symlinks: "followed",
    view: {
      order: "unknown",
      skillRoots: [
        { base: "cwd-to-project", path: ".opencode/skills" },
        { base: "cwd-to-project", path: ".claude/skills" },
        { base: "cwd-to-project", path: ".agents/skills" },
        { base: "home", path: ".config/opencode/skills" },
        { base: "home", path: ".claude/skills" },
        { base: "home", path: ".agents/skills" },
      ],
      depth: "nested",
      rules: { strictName: true, requireName: true, maxDescription: 1024 },
      settings: {
        files: [
          { base: "project", path: "opencode.json" },
          { base: "home", path: ".config/opencode/opencode.json" },
        ],
        read: true,
        note: "skills.enabled.<name> set to false hides that skill",
        switch: {
          file: { base: "home", path: ".config/opencode/opencode.json" },
          shape: "opencode-skills-enabled",
          source: "https://opencode.ai/v1/docs/skills.md: skills.enabled.<name> in opencode.json",
        },
      },
      format: "xml",
      source:
        "https://opencode.ai/v1/docs/skills.md and github.com/anomalyco/opencode packages/opencode/src/skill",
    },
  },
  {
    id: "copilot",
    label: "GitHub Copilot",
    aliases: ["github-copilot"],
    projectFolders: "root",
    userSkillRoot: ".copilot/skills",
    projectSkillRoot: ".github/skills",
    symlinks: "unknown",
    view: {
      order: "unknown",
      skillRoots: [
        { base: "project", path: ".github/skills" },
        { base: "project", path: ".claude/skills" },
        { base: "project", path: ".agents/skills" },
        { base: "home", path: ".copilot/skills" },
        { base: "home", path: ".agents/skills" },
      ],
      depth: "one",
      rules: { strictName: true, requireName: true, exactFileName: true },
      format: "xml",
      source:
        "https://docs.github.com/en/copilot/concepts/agents/about-agent-skills; its listing format and budget are not public",
    },
  },
  {
    id: "pi",
    label: "pi",
    projectFolders: "root",
    userSkillRoot: ".pi/agent/skills",
    projectSkillRoot: ".pi/skills",
    userPromptRoot: ".pi/agent/prompts",
    projectPromptRoot: ".pi/prompts",
    symlinks: "followed",
    view: {
      // the first skill found for a name is kept, global folders first
      order: "documented",
      skillRoots: [
        { base: "home", path: ".pi/agent/skills" },
        { base: "home", path: ".agents/skills" },
        { base: "cwd-to-project", path: ".pi/skills" },
        { base: "cwd-to-project", path: ".agents/skills" },
      ],
      depth: "nested",
      rules: { strictName: false, requireName: false },
      format: "xml",
      source:
        "https://github.com/badlogic/pi-mono/blob/83378aad/packages/coding-agent/docs/skills.md",
    },
  },
  {
    id: "agents",
    label: "Agent Skills (.agents)",
    projectFolders: "cwd-to-root",
    userSkillRoot: ".agents/skills",
    projectSkillRoot: ".agents/skills",
    symlinks: "unknown",
    view: {
      // the Agent Skills guide: project beats user
      order: "documented",
      skillRoots: [
        { base: "project", path: ".agents/skills" },
        { base: "home", path: ".agents/skills" },
      ],
      depth: "one",
      rules: { strictName: true, requireName: true, maxDescription: 1024 },
      format: "xml",
      source:
        "https://agentskills.io/specification and its client implementation guide (agentskills.io)",
    },
  },
];
