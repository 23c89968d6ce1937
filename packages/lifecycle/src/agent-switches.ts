// Agents' own per-skill switches (the agent table's `settings.switch`), written where each agent
// reads them: one writer per entry shape, each editing the user's file through a maintained
// editor that keeps every byte of the user's own content (comments, order, spacing).
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  type AgentDefinition,
  type AgentSwitchShape,
  decodeText,
  type Environment,
  readRegularFile,
  SkillshelfError,
  unreadSwitchFiles,
  writeFileAtomic,
} from "@skillshelf/core";
import { readInventory } from "@skillshelf/inventory";
import { readJsonFile, writeJsonFile } from "./_json-file.js";

/** What writing one agent's switch did: its file, the names it turned off and back on. */
export interface SwitchWrite {
  readonly agent: string;
  readonly file: string;
  readonly disabled: readonly string[];
  readonly enabled: readonly string[];
  readonly changed: boolean;
}

/**
 * Turn `off` off and `on` back on for `agent`, remembering which entries Skillshelf wrote (in the
 * user library) so that turning a skill back on removes only an entry of ours: one the user wrote
 * stays. `agent_switch_missing` for an agent that documents no switch.
 */
export async function switchSkills(
  environment: Environment,
  agent: AgentDefinition,
  change: { readonly off: readonly string[]; readonly on: readonly string[] },
): Promise<SwitchWrite> {
  const { agents: written, previous } = readWritten(environment);
  const before = written[agent.id] ?? [];
  const ours = new Set(before);
  const off = [...new Set(change.off)];
  const write = await writeAgentSwitch(environment, agent, {
    disable: off,
    enable: change.on.filter((skill) => ours.has(skill) && !off.includes(skill)),
  });
  // what the file turned off before, and Skillshelf did not write, stays the user's own
  const theirs = new Set(write.offBefore.filter((skill) => !ours.has(skill)));
  for (const skill of write.enabled) ours.delete(skill);
  for (const skill of off) if (!theirs.has(skill)) ours.add(skill);
  writeJsonFile(writtenPath(environment), {
    version: 1,
    agents: { ...written, [agent.id]: [...ours].sort() },
    // what `rollbackSwitch` puts back: the entries of ours before the last write that changed any
    previous: write.changed ? { ...previous, [agent.id]: before } : previous,
  });
  const { offBefore: _before, ...rest } = write;
  return rest;
}

/**
 * `rollback --agent`: `agent`'s switch put back as Skillshelf's last write found it (what it
 * turned off then, off; what it turned off since, back on), the user's own entries untouched;
 * rolling back again redoes that write. `undefined` when Skillshelf never changed the switch.
 */
export async function rollbackSwitch(
  environment: Environment,
  agent: AgentDefinition,
): Promise<SwitchWrite | undefined> {
  const { agents: written, previous } = readWritten(environment);
  const back = previous[agent.id];
  if (back === undefined) return undefined;
  return switchSkills(environment, agent, {
    off: back,
    on: (written[agent.id] ?? []).filter((skill) => !back.includes(skill)),
  });
}

/**
 * `disable <id…> --agent …` and `enable`: the skills the installed packages `ids` provide turned
 * off (or back on) in each agent's own switch; the packages stay enabled for every other agent.
 * `not_installed` for an id with no copy here; `agent_switch_missing` for an agent without one.
 */
export async function switchPackages(request: {
  readonly environment: Environment;
  readonly ids: readonly string[];
  readonly agents: readonly AgentDefinition[];
  readonly on: boolean;
}): Promise<readonly SwitchWrite[]> {
  const { environment, ids, agents, on } = request;
  const { copies, resources } = readInventory({
    environment,
    include: { packages: false, copies: true, resources: true },
  });
  for (const id of ids)
    if (!copies.some((copy) => copy.id === id))
      throw new SkillshelfError("not_installed", `${id} is not installed here`, {
        details: { id },
      });
  const names = [
    ...new Set(
      resources
        .filter(
          (one) => one.kind === "skill" && one.owner !== undefined && ids.includes(one.owner.id),
        )
        .map((one) => one.name),
    ),
  ].sort();
  const writes: SwitchWrite[] = [];
  for (const agent of agents)
    writes.push(
      await switchSkills(environment, agent, on ? { off: [], on: names } : { off: names, on: [] }),
    );
  return writes;
}

/**
 * Per agent whose own switch the loaders do not read themselves (Codex's TOML), the names it
 * turns off here, each with its file: what `explainAgents` takes as `settingsOff`, so `explain`
 * and a profile's budget see what the agent will list. A file missing or not parsing says nothing.
 */
export async function switchesOff(
  environment: Environment,
): Promise<Record<string, ReadonlyMap<string, string>>> {
  const off: Record<string, ReadonlyMap<string, string>> = {};
  for (const { agent, file } of unreadSwitchFiles(environment.home)) {
    const shape = agent.view.settings?.switch?.shape;
    if (shape === undefined) continue;
    try {
      const { offBefore } = await SWITCH_WRITERS[shape](textOf(file), NO_CHANGE);
      off[agent.id] = new Map(offBefore.map((name) => [name, file]));
    } catch {
      // a file the agent cannot read either: nothing it turns off is known
    }
  }
  return off;
}

const NO_CHANGE = { disable: [], enable: [] } as const;

/** The skills Skillshelf turned off in `agent`'s switch and has not turned back on. */
export function switchedOff(environment: Environment, agent: string): readonly string[] {
  return readWritten(environment).agents[agent] ?? [];
}

// --- internal ---

/**
 * Turn `disable` off and `enable` back on in `agent`'s own switch file: an entry per name turned
 * off, and for a name turned on, the entries that turn it off removed. Everything else in the file
 * is kept byte for byte; a file that does not parse is refused (`agent_switch_unreadable`) and left
 * as it is. The names the file already turns off before this write, so a caller can tell its own
 * entries from the user's.
 */
async function writeAgentSwitch(
  environment: Environment,
  agent: AgentDefinition,
  change: { readonly disable: readonly string[]; readonly enable: readonly string[] },
): Promise<SwitchWrite & { readonly offBefore: readonly string[] }> {
  const place = agent.view?.settings?.switch;
  if (place === undefined)
    throw new SkillshelfError(
      "agent_switch_missing",
      `${agent.label} documents no per-skill switch Skillshelf writes`,
      { details: { agent: agent.id } },
    );
  const file = join(environment.home, place.file.path);
  const before = existsSync(file) ? textOf(file) : undefined;
  let offBefore: readonly string[];
  let after: string;
  try {
    ({ offBefore, after } = await SWITCH_WRITERS[place.shape](before ?? "", change));
  } catch (error) {
    if (error instanceof SkillshelfError) throw error;
    throw new SkillshelfError(
      "agent_switch_unreadable",
      `${file} does not parse as ${agent.label}'s settings; nothing was written`,
      { path: file, cause: error },
    );
  }
  const changed = after !== (before ?? "");
  if (changed) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileAtomic({ path: file, text: after, expected: before });
  }
  return {
    agent: agent.id,
    file,
    disabled: change.disable,
    enabled: change.enable,
    changed,
    offBefore,
  };
}

function writtenPath(environment: Environment): string {
  return join(environment.configDir, "agent-switches.json");
}

/** `agent-switches.json`: per agent, the names Skillshelf turned off, now and before its last write. */
function readWritten(environment: Environment): {
  readonly agents: Record<string, readonly string[]>;
  readonly previous: Record<string, readonly string[]>;
} {
  const value = readJsonFile(writtenPath(environment))?.value as
    | { version?: unknown; agents?: unknown; previous?: unknown }
    | undefined;
  if (value?.version !== 1) return { agents: {}, previous: {} };
  return { agents: namesByAgent(value.agents), previous: namesByAgent(value.previous) };
}

function namesByAgent(value: unknown): Record<string, readonly string[]> {
  if (typeof value !== "object" || value === null) return {};
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, string[]] =>
        Array.isArray(entry[1]) && entry[1].every((one) => typeof one === "string"),
    ),
  );
}

const MAX_SETTINGS_BYTES = 1024 * 1024;

/**
 * One shape's writer: the names `text` turns off, and `text` with `disable` turned off and the
 * entries turning `enable` off removed (`text` itself when nothing changes).
 */
type SwitchWriter = (
  text: string,
  change: { readonly disable: readonly string[]; readonly enable: readonly string[] },
) => Promise<{ readonly offBefore: readonly string[]; readonly after: string }>;

/** One writer per shape of the agent table; a new shape fails to compile here until it has one. */
const SWITCH_WRITERS: Readonly<Record<AgentSwitchShape, SwitchWriter>> = {
  // Codex: `[[skills.config]]` tables (`name` or `path`, and `enabled`) in ~/.codex/config.toml
  "codex-skills-config": async (text, { disable, enable }) => {
    const { parse, patch, stringify } = await import("@decimalturn/toml-patch");
    const document = (text.trim() === "" ? {} : parse(text)) as Record<string, unknown>;
    const skills = (document.skills ?? {}) as Record<string, unknown>;
    const entries = Array.isArray(skills.config) ? (skills.config as CodexEntry[]) : [];
    const offBefore = entries.flatMap(offName);
    const dropped = new Set(enable);
    const kept = entries.filter((entry) => !offName(entry).some((name) => dropped.has(name)));
    const off = new Set(kept.flatMap(offName));
    const added = disable
      .filter((name) => !off.has(name))
      .map((name): CodexEntry => ({ name, enabled: false }));
    if (kept.length === entries.length && added.length === 0) return { offBefore, after: text };
    const { config: _config, ...rest } = skills;
    const config = [...kept, ...added];
    const updated = { ...document, skills: config.length === 0 ? rest : { ...rest, config } };
    return {
      offBefore,
      after: text.trim() === "" ? stringify(updated) : patch(text, updated),
    };
  },
  // OpenCode: `skills.enabled.<name>: false` in ~/.config/opencode/opencode.json
  "opencode-skills-enabled": async (text, { disable, enable }) => {
    const { applyEdits, modify, parse } = await import("jsonc-parser");
    type ParseErrors = Parameters<typeof parse>[1];
    const errors: NonNullable<ParseErrors> = [];
    const value = (text.trim() === "" ? {} : parse(text, errors)) as
      | { skills?: { enabled?: unknown } }
      | undefined;
    if (errors.length > 0) throw new Error("not JSON with comments");
    const enabled = value?.skills?.enabled;
    const current: Record<string, unknown> =
      typeof enabled === "object" && enabled !== null ? (enabled as Record<string, unknown>) : {};
    const offBefore = Object.keys(current).filter((name) => current[name] === false);
    let after = text.trim() === "" ? "{}\n" : text;
    const edit = (name: string, to: false | undefined) => {
      after = applyEdits(
        after,
        modify(after, ["skills", "enabled", name], to, {
          formattingOptions: { insertSpaces: true, tabSize: 2 },
        }),
      );
    };
    const changes = [
      ...enable.filter((name) => current[name] === false).map((name) => [name, undefined] as const),
      ...disable.filter((name) => current[name] !== false).map((name) => [name, false] as const),
    ];
    for (const [name, to] of changes) edit(name, to);
    return { offBefore, after: changes.length === 0 ? text : after };
  },
};

interface CodexEntry {
  readonly name?: unknown;
  readonly path?: unknown;
  readonly enabled?: unknown;
}

/** The name an entry turns off (`enabled = false` with a `name`), if any. */
function offName(entry: CodexEntry): string[] {
  return entry.enabled === false && typeof entry.name === "string" ? [entry.name] : [];
}

function textOf(file: string): string {
  const decoded = decodeText(readRegularFile(file, MAX_SETTINGS_BYTES));
  if (!decoded.ok)
    throw new SkillshelfError("agent_switch_unreadable", `${file} is not UTF-8 text`, {
      path: file,
    });
  return decoded.text;
}
