import type { AgentDefinition } from "./agents.js";

// Where these rows come from: the most used peer's agent table, which names one project and one
// user skill folder per agent and nothing about order, depth, rules, budget or symlinks.
const PEER_TABLE =
  "https://www.npmjs.com/package/skills/v/1.7.4 (the agents table of dist/cli.mjs, and docs/agents.md)";

/** An agent known only from the peer's table: its two folders; everything else unknown. */
function listed(
  id: string,
  label: string,
  project: string,
  user: string | undefined,
): AgentDefinition {
  return {
    id,
    label,
    projectFolders: "root",
    projectSkillRoot: project,
    ...(user === undefined ? {} : { userSkillRoot: user }),
    symlinks: "unknown",
    view: {
      skillRoots: [
        { base: "project", path: project },
        ...(user === undefined ? [] : [{ base: "home" as const, path: user }]),
      ],
      order: "unknown",
      depth: "unknown",
      source: PEER_TABLE,
    },
  };
}

/**
 * The agents whose folders only the peer's table records (ecosystem notes §1.1, Appendix A),
 * in its order. Their own documentation was not checked, so nothing else about them is claimed.
 */
export const LISTED_AGENTS: readonly AgentDefinition[] = [
  listed("aider-desk", "AiderDesk", ".aider-desk/skills", ".aider-desk/skills"),
  listed("astrbot", "AstrBot", "data/skills", ".astrbot/data/skills"),
  listed("autohand-code", "Autohand Code CLI", ".autohand/skills", ".autohand/skills"),
  listed("augment", "Augment", ".augment/skills", ".augment/skills"),
  listed("bob", "IBM Bob", ".bob/skills", ".bob/skills"),
  listed("codearts-agent", "CodeArts Agent", ".codeartsdoer/skills", ".codeartsdoer/skills"),
  listed("codebuddy", "CodeBuddy", ".codebuddy/skills", ".codebuddy/skills"),
  listed("codemaker", "Codemaker", ".codemaker/skills", ".codemaker/skills"),
  listed("codestudio", "Code Studio", ".codestudio/skills", ".codestudio/skills"),
  listed("command-code", "Command Code", ".commandcode/skills", ".commandcode/skills"),
  listed("continue", "Continue", ".continue/skills", ".continue/skills"),
  listed("cortex", "Cortex Code", ".cortex/skills", ".snowflake/cortex/skills"),
  listed("deepagents", "Deep Agents", ".agents/skills", ".deepagents/agent/skills"),
  listed("devin", "Devin for Terminal", ".devin/skills", ".config/devin/skills"),
  listed("dexto", "Dexto", ".agents/skills", ".agents/skills"),
  listed("firebender", "Firebender", ".agents/skills", ".firebender/skills"),
  listed("forgecode", "ForgeCode", ".forge/skills", ".forge/skills"),
  listed("fx", "fx", ".agents/skills", ".agents/skills"),
  listed("grok", "Grok Build", ".grok/skills", ".grok/skills"),
  listed("inference-sh", "inference.sh", ".inferencesh/skills", ".inferencesh/skills"),
  listed("jazz", "Jazz", ".jazz/skills", ".jazz/skills"),
  listed("junie", "Junie", ".junie/skills", ".junie/skills"),
  listed("iflow-cli", "iFlow CLI", ".iflow/skills", ".iflow/skills"),
  listed("kilo", "Kilo Code", ".agents/skills", ".kilo/skills"),
  listed("kimchi", "Kimchi", ".kimchi/skills", ".config/kimchi/harness/skills"),
  listed("kimi-code-cli", "Kimi Code CLI", ".agents/skills", ".agents/skills"),
  listed("kode", "Kode", ".kode/skills", ".kode/skills"),
  listed("lingma", "Lingma", ".lingma/skills", ".lingma/skills"),
  listed("loaf", "Loaf", ".agents/skills", ".agents/skills"),
  listed("mcpjam", "MCPJam", ".mcpjam/skills", ".mcpjam/skills"),
  listed("minimax-code", "MiniMax Code", ".minimax/skills", ".minimax/skills"),
  listed("mistral-vibe", "Mistral Vibe", ".vibe/skills", ".vibe/skills"),
  listed("moxby", "Moxby", ".moxby/skills", ".moxby/skills"),
  listed("mux", "Mux", ".mux/skills", ".mux/skills"),
  listed("openhands", "OpenHands", ".openhands/skills", ".openhands/skills"),
  listed("ona", "Ona", ".ona/skills", ".ona/skills"),
  listed(
    "posit-assistant",
    "Posit Assistant",
    ".posit/assistant/skills",
    ".posit/assistant/skills",
  ),
  listed("qoder", "Qoder", ".qoder/skills", ".qoder/skills"),
  listed("qoder-cn", "Qoder CN", ".qoder/skills", ".qoder-cn/skills"),
  listed("qwen-code", "Qwen Code", ".qwen/skills", ".qwen/skills"),
  listed("replit", "Replit", ".agents/skills", ".config/agents/skills"),
  listed("reasonix", "Reasonix", ".reasonix/skills", ".reasonix/skills"),
  listed("rovodev", "Rovo Dev", ".rovodev/skills", ".rovodev/skills"),
  listed("sarvam-code", "Sarvam Code", ".agents/skills", ".agents/skills"),
  listed("tabnine-cli", "Tabnine CLI", ".tabnine/agent/skills", ".tabnine/agent/skills"),
  listed("terramind", "Terramind", ".terramind/skills", ".terramind/skills"),
  listed("tinycloud", "Tinycloud", ".tinycloud/skills", ".tinycloud/skills"),
  listed("trae", "Trae", ".trae/skills", ".trae/skills"),
  listed("trae-cn", "Trae CN", ".trae/skills", ".trae-cn/skills"),
  listed("warp", "Warp", ".agents/skills", ".agents/skills"),
  listed("zed", "Zed", ".agents/skills", ".agents/skills"),
  listed("zcode", "ZCode", ".zcode/skills", ".zcode/skills"),
  listed("zencoder", "Zencoder", ".zencoder/skills", ".zencoder/skills"),
  listed("zenflow", "Zenflow", ".zencoder/skills", ".zencoder/skills"),
  listed("neovate", "Neovate", ".neovate/skills", ".neovate/skills"),
  listed("pochi", "Pochi", ".pochi/skills", ".pochi/skills"),
  listed("promptscript", "PromptScript", ".agents/skills", undefined),
  listed("adal", "AdaL", ".adal/skills", ".adal/skills"),
];
