import { readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import {
  AGENTS,
  type AgentBudget,
  type AgentDefinition,
  type AgentView,
  type AgentViewRoot,
  type Environment,
  type EnvironmentInput,
  findAgent,
  foldersUpToProject,
  parseJson,
  resolveEnvironment,
  scopeAnchor,
} from "@skillshelf/core";
import type { SkillCache } from "./cache.js";
import { SKILL_NAME_PATTERN } from "./fields.js";
import { loadSkills } from "./load.js";
import type { Skill } from "./types.js";

/** One root of an agent's, in the agent's own order, as found here. */
export interface ExplainedRoot {
  readonly path: string;
  readonly scope: "user" | "project";
  /** Every agent of the table that reads this folder (a link here serves them all). */
  readonly readBy: readonly string[];
  readonly exists: boolean;
  /** Skills found in it (before the agent's rules). */
  readonly found: number;
}

/** A skill the agent would load: the winner of its name by the agent's own order. */
export interface ExplainedSkill {
  readonly name: string;
  readonly description: string;
  readonly path: string;
  /** Index into `roots`. */
  readonly root: number;
}

/** What an agent would make of one folder, and why (`explain`). */
export interface AgentExplanation {
  readonly agent: string;
  readonly label: string;
  readonly source: string;
  /** `undefined` when the agent does not document it. */
  readonly format?: "xml" | "markdown" | undefined;
  /** What the agent does not document, so `explain` cannot reproduce it: shown as unknown, never guessed. */
  readonly unknown: readonly ("order" | "depth" | "rules" | "format" | "budget" | "symlinks")[];
  /** Whether it loads a symlinked skill folder (a link for it is a copy when not). */
  readonly symlinks: "followed" | "not-followed" | "unknown";
  readonly roots: readonly ExplainedRoot[];
  readonly loaded: readonly ExplainedSkill[];
  /** Copies of a loaded name in a later root (or later in the same root): never seen by the agent. */
  readonly shadowed: readonly {
    readonly name: string;
    readonly path: string;
    readonly by: string;
  }[];
  /** Files the agent would refuse, with the code of the rule. */
  readonly notLoaded: readonly {
    readonly path: string;
    readonly name?: string | undefined;
    readonly code: string;
    readonly reason: string;
  }[];
  /** Loaded skills its model is not given: `disable-model-invocation`, or the agent's own settings. */
  readonly hidden: readonly { readonly name: string; readonly reason: string }[];
  readonly settings?: {
    readonly files: readonly string[];
    readonly read: boolean;
    readonly note: string;
  };
  /** What the agent's listing budget does to the skills its model is given. */
  readonly budget?: BudgetEffect;
}

/** A budget rule applied: which descriptions it shortens (to how many characters) and which skills it drops. */
export interface BudgetEffect {
  readonly rule: AgentBudget;
  /** Characters the full listing would take. */
  readonly needed: number;
  readonly fits: boolean;
  readonly shortened: readonly {
    readonly name: string;
    readonly from: number;
    readonly to: number;
  }[];
  readonly dropped: readonly string[];
}

/**
 * For each agent of the table (or the one named), what it would load from `cwd` and why: its
 * skill roots in its own order, the winner of every name by that order, what is shadowed and by
 * what, what it would refuse by its own rules, what its model is not given, and what its listing
 * budget would cut. Each distinct folder is read once for all agents. Reads only.
 */
export function explainAgents(
  input: EnvironmentInput & {
    readonly agent?: string | undefined;
    /**
     * Per agent id, the names its own settings turn off (each with the file saying so), read by
     * the caller for an agent whose settings this reader does not parse (Codex's TOML:
     * lifecycle's `switchesOff`); they are hidden like those of settings read here.
     */
    readonly settingsOff?: Readonly<Record<string, ReadonlyMap<string, string>>> | undefined;
    /** A skill cache to read through (an unchanged skill file is then only stat-ed). */
    readonly cache?: SkillCache | undefined;
  } = {},
): AgentExplanation[] {
  const environment = resolveEnvironment(input);
  const reads = new Map<string, ReturnType<typeof loadSkills>>();
  const read = (path: string, scope: "user" | "project") => {
    const key = `${scope}\0${path}`;
    let result = reads.get(key);
    if (result === undefined) {
      result = loadSkills({
        ...environment,
        cache: input.cache,
        roots: [
          {
            path,
            scope,
            source: "explain",
            origin: "explain",
            precedence: 0,
            trust: "trusted",
            containment: scopeAnchor(environment, scope),
            // a link Skillshelf made into an agent's user folder leads into the user library
            ...(scope === "user" ? { linkTargets: [environment.configDir] } : {}),
          },
        ],
      });
      reads.set(key, result);
    }
    return result;
  };
  // each agent's folders here, each folder looked at once however many agents read it
  const folders = new Map<string, boolean>();
  const isFolder = (path: string) => {
    const known = folders.get(path);
    if (known !== undefined) return known;
    const exists = existsFolder(path);
    folders.set(path, exists);
    return exists;
  };
  const rootsOf = new Map(
    AGENTS.map((agent) => [agent, concreteRoots(environment, agent.view.skillRoots, isFolder)]),
  );
  // which agents read each folder here, for every agent's roots to name
  const readersOf = new Map<string, string[]>();
  for (const [agent, roots] of rootsOf)
    for (const root of roots)
      readersOf.set(root.path, [...(readersOf.get(root.path) ?? []), agent.id]);
  const readers = (path: string) => readersOf.get(path) ?? [];
  const wanted = input.agent === undefined ? undefined : findAgent(input.agent);
  return AGENTS.filter((agent) => input.agent === undefined || agent === wanted).map((agent) =>
    explainAgent(
      environment,
      agent,
      rootsOf.get(agent) ?? [],
      read,
      readers,
      input.settingsOff?.[agent.id],
    ),
  );
}

/**
 * Which skills a budget rule shortens and drops (our model of the documented rule): each listed
 * skill costs its name, description, location and `perSkill` characters of markup. Over the
 * budget, every description is cut to the longest common length that fits; when even names alone
 * do not fit, skills are left out from the end of the name order.
 */
export function applyBudget(
  rule: AgentBudget,
  skills: readonly { readonly name: string; readonly description: string; readonly path: string }[],
): BudgetEffect {
  const base = (skill: (typeof skills)[number]) =>
    rule.perSkill + skill.name.length + skill.path.length;
  const total = (cap: number) =>
    skills.reduce((sum, skill) => sum + base(skill) + Math.min(skill.description.length, cap), 0);
  const longest = Math.max(0, ...skills.map((skill) => skill.description.length));
  const needed = total(longest);
  if (needed <= rule.chars) return { rule, needed, fits: true, shortened: [], dropped: [] };
  let low = 0;
  let high = longest;
  while (low < high) {
    const cap = Math.ceil((low + high) / 2);
    if (total(cap) <= rule.chars) low = cap;
    else high = cap - 1;
  }
  const cap = low;
  const shortened = skills
    .filter((skill) => skill.description.length > cap)
    .map((skill) => ({ name: skill.name, from: skill.description.length, to: cap }));
  const dropped: string[] = [];
  if (cap === 0) {
    let sum = total(0);
    for (const skill of [...skills].reverse()) {
      if (sum <= rule.chars) break;
      sum -= base(skill);
      dropped.unshift(skill.name);
    }
  }
  return {
    rule,
    needed,
    fits: false,
    shortened: shortened.filter((entry) => !dropped.includes(entry.name)),
    dropped,
  };
}

// --- internal ---

function explainAgent(
  environment: Environment,
  agent: AgentDefinition,
  roots: ReturnType<typeof concreteRoots>,
  read: (path: string, scope: "user" | "project") => ReturnType<typeof loadSkills>,
  readers: (path: string) => readonly string[],
  offByCaller: ReadonlyMap<string, string> | undefined,
): AgentExplanation {
  const { view } = agent;
  const hiddenBySettings = new Map([
    ...(offByCaller ?? []),
    ...(view.settings?.read === true ? disabledNames(environment, view.settings.files) : []),
  ]);
  const explainedRoots: ExplainedRoot[] = [];
  const winners = new Map<string, ExplainedSkill & { skill: Skill }>();
  const shadowed: { name: string; path: string; by: string }[] = [];
  const notLoaded: { path: string; name?: string | undefined; code: string; reason: string }[] = [];
  roots.forEach((root, index) => {
    const result = read(root.path, root.scope);
    const candidates = [
      ...result.items,
      ...result.collisions.flatMap((group) => group.losers.map((loss) => loss.item)),
    ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    explainedRoots.push({
      path: root.path,
      scope: root.scope,
      readBy: readers(root.path),
      exists: root.exists,
      found: candidates.length,
    });
    for (const diagnostic of result.diagnostics)
      if (diagnostic.severity === "error" && diagnostic.path !== undefined)
        notLoaded.push({
          path: diagnostic.path,
          code: diagnostic.code,
          reason: diagnostic.message,
        });
    for (const skill of candidates) {
      const refusal = refusedBy(agent, root.path, skill);
      if (refusal !== undefined) {
        notLoaded.push({ path: skill.path, name: skill.name, ...refusal });
        continue;
      }
      const name = nameFor(skill);
      const winner = winners.get(name);
      if (winner !== undefined) {
        shadowed.push({ name, path: skill.path, by: winner.path });
        continue;
      }
      winners.set(name, {
        name,
        description: skill.description,
        path: skill.path,
        root: index,
        skill,
      });
    }
  });
  const loaded = [...winners.values()].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  const hidden = loaded.flatMap((entry) => {
    if (entry.skill.disableModelInvocation)
      return [{ name: entry.name, reason: "disable-model-invocation: true" }];
    const setting = hiddenBySettings.get(entry.name);
    return setting === undefined ? [] : [{ name: entry.name, reason: `disabled in ${setting}` }];
  });
  const hiddenNames = new Set(hidden.map((entry) => entry.name));
  const listed = loaded.filter((entry) => !hiddenNames.has(entry.name));
  return {
    agent: agent.id,
    label: agent.label,
    source: view.source,
    ...(view.format === undefined ? {} : { format: view.format }),
    unknown: unknownFacts(agent),
    symlinks: agent.symlinks,
    roots: explainedRoots,
    loaded: loaded.map(({ skill: _skill, ...entry }) => entry),
    shadowed,
    notLoaded: notLoaded.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    hidden,
    ...(view.settings === undefined
      ? {}
      : {
          settings: {
            files: view.settings.files.flatMap((file) =>
              concreteRoots(environment, [file]).map((root) => root.path),
            ),
            // read here, or by the caller (`settingsOff`)
            read: view.settings.read || offByCaller !== undefined,
            note: view.settings.note,
          },
        }),
    ...(view.budget === undefined ? {} : { budget: applyBudget(view.budget, listed) }),
  };
}

/** What an agent's row leaves undocumented. */
function unknownFacts(agent: AgentDefinition): AgentExplanation["unknown"] {
  const { view } = agent;
  return [
    ...(view.order === "unknown" ? (["order"] as const) : []),
    ...(view.depth === "unknown" ? (["depth"] as const) : []),
    ...(view.rules === undefined ? (["rules"] as const) : []),
    ...(view.format === undefined ? (["format"] as const) : []),
    ...(view.budget === undefined ? (["budget"] as const) : []),
    ...(agent.symlinks === "unknown" ? (["symlinks"] as const) : []),
  ];
}

/** The name an agent calls a skill by: its frontmatter `name`, else its folder's name. */
function nameFor(skill: Skill): string {
  const declared = skill.frontmatter.name;
  return typeof declared === "string" && declared.trim() !== ""
    ? declared.trim()
    : skill.pathSubject;
}

const NO_RULES: NonNullable<AgentView["rules"]> = { strictName: false, requireName: false };

function refusedBy(
  agent: AgentDefinition,
  root: string,
  skill: Skill,
): { code: string; reason: string } | undefined {
  // an agent that documents no depth or rules refuses nothing here: unknown is not invented
  const { rules = NO_RULES, depth } = agent.view;
  if (depth === "one" && dirname(dirname(skill.path)) !== root)
    return {
      code: "agent_too_deep",
      reason: `${agent.label} reads only <root>/<name>/SKILL.md, one folder deep`,
    };
  if (rules.exactFileName === true && basename(skill.path) !== "SKILL.md")
    return { code: "agent_file_name", reason: `${agent.label} reads only files named SKILL.md` };
  const declared = skill.frontmatter.name;
  if (rules.requireName && (typeof declared !== "string" || declared.trim() === ""))
    return { code: "agent_name_missing", reason: `${agent.label} needs a frontmatter name` };
  if (rules.strictName) {
    const name = nameFor(skill);
    if (!SKILL_NAME_PATTERN.test(name) || name.length > 64 || name !== skill.pathSubject)
      return {
        code: "agent_name_invalid",
        reason: `${agent.label} needs a name of lowercase letters, digits and hyphens equal to the folder name (${skill.pathSubject})`,
      };
  }
  if (rules.maxDescription !== undefined && skill.description.length > rules.maxDescription)
    return {
      code: "agent_description_too_long",
      reason: `${agent.label} refuses a description longer than ${rules.maxDescription} characters (this one has ${skill.description.length})`,
    };
  return undefined;
}

/** An agent's roots as folders here, in its order; a folder reached twice counts at its first place. */
function concreteRoots(
  environment: Environment,
  roots: readonly AgentViewRoot[],
  isFolder: (path: string) => boolean = existsFolder,
): { path: string; scope: "user" | "project"; exists: boolean }[] {
  const seen = new Set<string>();
  const out: { path: string; scope: "user" | "project"; exists: boolean }[] = [];
  for (const root of roots) {
    const bases =
      root.base === "home"
        ? [environment.home]
        : root.base === "project"
          ? [environment.project]
          : foldersUpToProject(environment).reverse();
    for (const base of bases) {
      const path = join(base, root.path);
      if (seen.has(path)) continue;
      seen.add(path);
      out.push({
        path,
        scope: root.base === "home" ? "user" : "project",
        exists: isFolder(path),
      });
    }
  }
  return out;
}

function existsFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/** Names an agent's settings files disable (`skills.enabled.<name>: false`), with the file saying so. */
function disabledNames(
  environment: Environment,
  files: readonly AgentViewRoot[],
): Map<string, string> {
  const disabled = new Map<string, string>();
  for (const { path } of concreteRoots(environment, files)) {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      continue;
    }
    const parsed = parseJson(text);
    const enabled = parsed.ok
      ? (parsed.value as { skills?: { enabled?: unknown } } | null)?.skills?.enabled
      : undefined;
    if (typeof enabled !== "object" || enabled === null) continue;
    for (const [name, on] of Object.entries(enabled))
      if (on === false && !disabled.has(name)) disabled.set(name, path);
  }
  return disabled;
}
