import { existsSync } from "node:fs";
import { join } from "node:path";
import { DOCUMENTED_AGENTS } from "./_agent-rows.js";
import { LISTED_AGENTS } from "./_agent-rows-listed.js";
import { VERIFIED_AGENTS } from "./_agent-rows-verified.js";
import type { LinkKind } from "./kinds.js";
import type { PackageScope } from "./types.js";

/**
 * One coding agent whose folders Skillshelf reads. Paths are relative: user roots to the home
 * folder, project roots to the project folder (and, for `projectFolders: "cwd-to-root"`, to
 * every folder from `cwd` up to it). A missing root means the agent has none.
 */
export interface AgentDefinition {
  readonly id: string;
  readonly label: string;
  /** Other ids it is known by (the most used peer's, where they differ), accepted by `--agent`. */
  readonly aliases?: readonly string[];
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
  /**
   * Whether the agent loads a skill folder that is a symlink (`followed`), needs a real folder
   * (`not-followed`: `link` writes a copy), or nobody has said (`unknown`: `link` makes a symlink,
   * the form most agents follow, and `explain` says it is not documented).
   */
  readonly symlinks: "followed" | "not-followed" | "unknown";
  /**
   * Folders starting with `.` directly under its skill folders that the agent reads (Codex unpacks
   * its system skills into `~/.codex/skills/.system`); every other dot folder is skipped.
   */
  readonly skillDotFolders?: readonly string[];
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
 * An agent's own view of skills (`explain`), as data with its source: its roots in
 * its own precedence order (the first root holding a name wins it), how deep it looks, what it
 * refuses, the settings that hide skills, its listing format and budget.
 */
export interface AgentView {
  readonly skillRoots: readonly AgentViewRoot[];
  /** Whether the agent documents which root wins a name (`documented`: `skillRoots` is in that order). */
  readonly order: "documented" | "unknown";
  /** `one`: only `<root>/<name>/SKILL.md`; `nested`: folders below too (category folders). */
  readonly depth: "one" | "nested" | "unknown";
  /** What makes the agent refuse a skill, beyond a missing description; `undefined`: not documented. */
  readonly rules?: {
    /** `name` must be 1–64 lowercase letters, digits and single hyphens, equal to the folder name. */
    readonly strictName: boolean;
    /** A frontmatter `name` is required (else the folder name is used). */
    readonly requireName: boolean;
    /** Only a file named exactly `SKILL.md` is a skill (not `skill.md`, not a loose `.md`). */
    readonly exactFileName?: boolean;
    /** Longest description it accepts, when it refuses longer ones. */
    readonly maxDescription?: number;
  };
  /**
   * Settings files of the agent's own that hide skills, and whether the loaders read them (JSON);
   * a switch in a format they do not parse (Codex's TOML) is read through its writer instead.
   */
  readonly settings?: {
    readonly files: readonly AgentViewRoot[];
    readonly read: boolean;
    readonly note: string;
    /**
     * The agent's documented per-skill switch Skillshelf writes (a profile turning skills off for
     * it): the user's file it is kept in, and the shape of its entries. Without one, linking and
     * unlinking is the switch.
     */
    readonly switch?: AgentSwitch;
  };
  /** The listing format it gives its model; `undefined`: not documented. */
  readonly format?: "xml" | "markdown";
  readonly budget?: AgentBudget;
  /** Where this row's facts come from: the agent's public docs or source, as URLs. */
  readonly source: string;
}

/** The shapes of agents' per-skill switches a writer knows (one writer per shape, in `lifecycle`). */
export type AgentSwitchShape = "codex-skills-config" | "opencode-skills-enabled";

/** An agent's per-skill switch: the file (the user's own), the shape of its entries, and the source that documents it. */
export interface AgentSwitch {
  readonly file: AgentViewRoot & { readonly base: "home" };
  readonly shape: AgentSwitchShape;
  readonly source: string;
}

/**
 * The agent interop table. Order is the tie-break rank between agents: earlier wins.
 * Adding a row teaches every reader a new agent. A folder two rows name is owned (its column set)
 * by the first; the others read it through their view, and a link there serves them all.
 */
export const AGENTS: readonly AgentDefinition[] = withOwnedFolders([
  ...DOCUMENTED_AGENTS,
  ...VERIFIED_AGENTS,
  ...LISTED_AGENTS,
]);

/** Every folder an agent reads skills from in a project, relative to it: where collections keep skills too. */
export const AGENT_PROJECT_SKILL_FOLDERS: readonly string[] = [
  ...new Set(
    AGENTS.flatMap((agent) =>
      agent.view.skillRoots.filter((root) => root.base !== "home").map((root) => root.path),
    ),
  ),
];

/**
 * The folder an agent reads skills from in a scope, taken from its own view: the first of its
 * roots there (home for `user`, the project or the folders up to it for `project`). Links into
 * the agent go here, so the agent reads what is linked; `undefined` when it reads none there.
 */
export function agentSkillFolder(agent: AgentDefinition, scope: PackageScope): string | undefined {
  return agent.view.skillRoots.find((root) => (root.base === "home") === (scope === "user"))?.path;
}

/** How one linkable kind sits in an agent's folders: where, and as a folder or a file. */
interface LinkShape {
  /** The agent's folder for it in a scope, from the agent table; `undefined` when it has none. */
  readonly folder: (agent: AgentDefinition, scope: PackageScope) => string | undefined;
  /** A skill is a folder (one name, never nested); a template or recipe is a file. */
  readonly folderLike: boolean;
}

const LINK_SHAPES: { readonly [K in LinkKind]: LinkShape } = {
  // where the agent itself reads skills, never a column that could say otherwise
  skill: { folder: agentSkillFolder, folderLike: true },
  prompt: {
    folder: (agent, scope) => (scope === "user" ? agent.userPromptRoot : agent.projectPromptRoot),
    folderLike: false,
  },
  agent: {
    folder: (agent, scope) => (scope === "user" ? agent.userAgentRoot : agent.projectAgentRoot),
    folderLike: false,
  },
};

/** Whether a linkable kind is a folder (a skill) rather than a file. */
export function isFolderLike(kind: LinkKind): boolean {
  return LINK_SHAPES[kind].folderLike;
}

/**
 * An agent's folder for a kind of resource in a scope, relative to the scope's anchor, from the
 * agent table; `undefined` when the agent has none (Copilot has no prompt folder).
 */
export function agentFolder(
  agentId: string,
  scope: PackageScope,
  kind: LinkKind,
): string | undefined {
  const agent = AGENTS.find((candidate) => candidate.id === agentId);
  return agent === undefined ? undefined : LINK_SHAPES[kind].folder(agent, scope);
}

// each agent's place in the table, looked up by every collision comparison
const RANKS: ReadonlyMap<string, number> = new Map(AGENTS.map((agent, index) => [agent.id, index]));

/** Rank of an agent id in the interop table (lower wins ties); unknown ids rank after every agent. */
export function agentRank(id: string): number {
  return RANKS.get(id) ?? AGENTS.length;
}

/** The agent of the table with this id or alias. */
export function findAgent(id: string): AgentDefinition | undefined {
  return AGENTS.find((agent) => agent.id === id || agent.aliases?.includes(id) === true);
}

/** A skill folder linked for this agent must be a copy: it does not load a symlinked one. */
export function agentNeedsCopy(agent: AgentDefinition): boolean {
  return agent.symlinks === "not-followed";
}

/**
 * The per-skill switch files on this machine that the loaders do not parse themselves (Codex's
 * TOML), each with its agent: what a reader of switches reads, and nothing when none is there.
 */
export function unreadSwitchFiles(
  home: string,
): { readonly agent: AgentDefinition; readonly file: string }[] {
  return AGENTS.flatMap((agent) => {
    const settings = agent.view.settings;
    if (settings?.switch === undefined || settings.read) return [];
    const file = join(home, settings.switch.file.path);
    return existsSync(file) ? [{ agent, file }] : [];
  });
}

// --- internal ---

/** `rows` with each folder column kept only by the first row naming that folder. */
function withOwnedFolders(rows: readonly AgentDefinition[]): AgentDefinition[] {
  // (declared here: the table is built while this module initialises)
  const columns = [
    "userSkillRoot",
    "projectSkillRoot",
    "userPromptRoot",
    "projectPromptRoot",
    "userAgentRoot",
    "projectAgentRoot",
  ] as const;
  const owned = new Set<string>();
  return rows.map((row) => {
    const copy: { -readonly [K in keyof AgentDefinition]: AgentDefinition[K] } = { ...row };
    for (const column of columns) {
      const folder = row[column];
      if (folder === undefined) continue;
      const key = `${column}:${folder}`;
      if (owned.has(key)) delete copy[column];
      else owned.add(key);
    }
    return copy;
  });
}
