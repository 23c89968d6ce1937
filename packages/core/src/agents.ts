/**
 * One coding agent whose folders Skillshelf reads. Paths are relative: user roots to the home
 * folder, project roots to the project folder (and, for `projectFolders: "cwd-to-root"`, to
 * every folder from `cwd` up to it). A missing root means the agent has none.
 */
export interface AgentDefinition {
  readonly id: string;
  readonly label: string;
  /**
   * Where the agent reads its project folders: at the project root only (`root`), or in `cwd` and
   * each folder above it up to the project root (`cwd-to-root`, nearest first), as Codex reads
   * `.agents/skills` (https://developers.openai.com/codex/skills).
   */
  readonly projectFolders: "root" | "cwd-to-root";
  readonly userSkillRoot?: string;
  readonly projectSkillRoot?: string;
  readonly userPromptRoot?: string;
  readonly projectPromptRoot?: string;
  /** Sub-agent definitions in a format compatible with our agent recipes. */
  readonly userAgentRoot?: string;
  readonly projectAgentRoot?: string;
  /** How the agent itself finds, accepts and lists skills: what `explain` reproduces. */
  readonly view: AgentView;
}

/** One folder an agent reads skills from, in its own terms. */
export interface AgentViewRoot {
  /** Relative to the home folder (`home`), the project folder (`project`), or each folder from `cwd` up to the project, nearest first (`cwd-to-project`). */
  readonly base: "home" | "project" | "cwd-to-project";
  readonly path: string;
}

/** How an agent lists skills within a budget, as its documentation describes it. */
export interface AgentBudget {
  /** The listing's budget in characters (names, descriptions and their markup). */
  readonly chars: number;
  /** What the agent does past it: shorten descriptions and then list names only (`names-only`), or shorten descriptions and then leave skills out (`drop`). */
  readonly over: "names-only" | "drop";
  /** Characters each listed skill costs besides its name and description (markup, location). */
  readonly perSkill: number;
  /** Where the figures come from. */
  readonly source: string;
}

/**
 * An agent's own view of skills (DESIGN §10, `explain`), as data with its source: its roots in
 * its own precedence order (the first root holding a name wins it), how deep it looks, what it
 * refuses, the settings that hide skills, its listing format and budget.
 */
export interface AgentView {
  readonly skillRoots: readonly AgentViewRoot[];
  /** `one`: only `<root>/<name>/SKILL.md`; `nested`: folders below too (category folders). */
  readonly depth: "one" | "nested";
  /** What makes the agent refuse a skill, beyond a missing description. */
  readonly rules: {
    /** `name` must be 1–64 lowercase letters, digits and single hyphens, equal to the folder name. */
    readonly strictName: boolean;
    /** A frontmatter `name` is required (else the folder name is used). */
    readonly requireName: boolean;
    /** Only a file named exactly `SKILL.md` is a skill (not `skill.md`, not a loose `.md`). */
    readonly exactFileName?: boolean;
    /** Longest description it accepts, when it refuses longer ones. */
    readonly maxDescription?: number;
  };
  /** Settings files of the agent's own that hide skills, and whether Skillshelf reads them. */
  readonly settings?: {
    readonly files: readonly AgentViewRoot[];
    readonly read: boolean;
    readonly note: string;
  };
  /** The listing format it gives its model. */
  readonly format: "xml" | "markdown";
  readonly budget?: AgentBudget;
  /** Where this row's facts come from: the agent's public docs or source, as URLs. */
  readonly source: string;
}

/**
 * The agent interop table (DESIGN §2). Order is the tie-break rank between agents: earlier wins.
 * Adding a row teaches every reader a new agent.
 */
export const AGENTS: readonly AgentDefinition[] = [
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
    view: {
      // personal beats project, as Claude Code documents it
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
    view: {
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
        note: "[[skills.config]] entries with enabled = false hide a skill; Skillshelf does not read this file",
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
    view: {
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
      },
      format: "xml",
      source:
        "https://opencode.ai/v1/docs/skills.md and github.com/anomalyco/opencode packages/opencode/src/skill",
    },
  },
  {
    id: "copilot",
    label: "GitHub Copilot",
    projectFolders: "root",
    userSkillRoot: ".copilot/skills",
    projectSkillRoot: ".github/skills",
    view: {
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
    view: {
      // the first skill found for a name is kept, global folders first
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
    view: {
      // the Agent Skills guide: project beats user
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

/**
 * The folder an agent reads skills from in a scope, taken from its own view: the first of its
 * roots there (home for `user`, the project or the folders up to it for `project`). Links into
 * the agent go here, so the agent reads what is linked; `undefined` when it reads none there.
 */
export function agentSkillFolder(
  agent: AgentDefinition,
  scope: "user" | "project",
): string | undefined {
  return agent.view.skillRoots.find((root) => (root.base === "home") === (scope === "user"))?.path;
}

/** Rank of an agent id in the interop table (lower wins ties); unknown ids rank after every agent. */
export function agentRank(id: string): number {
  const index = AGENTS.findIndex((agent) => agent.id === id);
  return index === -1 ? AGENTS.length : index;
}
