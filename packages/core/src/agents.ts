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
   * `.agents/skills` (ecosystem.md §2.4).
   */
  readonly projectFolders: "root" | "cwd-to-root";
  readonly userSkillRoot?: string;
  readonly projectSkillRoot?: string;
  readonly userPromptRoot?: string;
  readonly projectPromptRoot?: string;
  /** Sub-agent definitions in a format compatible with our agent recipes. */
  readonly userAgentRoot?: string;
  readonly projectAgentRoot?: string;
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
  },
  {
    id: "codex",
    label: "Codex",
    projectFolders: "root",
    userSkillRoot: ".codex/skills",
    projectSkillRoot: ".codex/skills",
    userPromptRoot: ".codex/prompts",
    projectPromptRoot: ".codex/prompts",
  },
  {
    id: "opencode",
    label: "OpenCode",
    projectFolders: "root",
    userSkillRoot: ".config/opencode/skills",
    projectSkillRoot: ".opencode/skills",
    userPromptRoot: ".config/opencode/command",
    projectPromptRoot: ".opencode/command",
  },
  {
    id: "copilot",
    label: "GitHub Copilot",
    projectFolders: "root",
    userSkillRoot: ".copilot/skills",
    projectSkillRoot: ".github/skills",
  },
  {
    id: "pi",
    label: "pi",
    projectFolders: "root",
    userSkillRoot: ".pi/agent/skills",
    projectSkillRoot: ".pi/skills",
    userPromptRoot: ".pi/agent/prompts",
    projectPromptRoot: ".pi/prompts",
  },
  {
    id: "agents",
    label: "Agent Skills (.agents)",
    projectFolders: "cwd-to-root",
    userSkillRoot: ".agents/skills",
    projectSkillRoot: ".agents/skills",
  },
];

/** Rank of an agent id in the interop table (lower wins ties); unknown ids rank after every agent. */
export function agentRank(id: string): number {
  const index = AGENTS.findIndex((agent) => agent.id === id);
  return index === -1 ? AGENTS.length : index;
}
