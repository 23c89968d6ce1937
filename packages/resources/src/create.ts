import { type Environment, identityKey, resolveEnvironment } from "@skillshelf/core";
import { expandPromptTemplate, parsePromptCommand } from "@skillshelf/prompts-loader";
import {
  createSkillCache,
  isModelVisible,
  parseSkillCommand,
  parseSuggestedSkills,
  type Skill,
} from "@skillshelf/skills-loader";
import { createScopeCache, type PackageSnapshot, packageCopyRoots } from "@skillshelf/store";
import { invokeLoaded } from "./_invocation.js";
import { beginPass, type PassSettings } from "./_pass.js";
import type {
  OfferedRow,
  ReadPass,
  Resources,
  ResourcesOptions,
  SkillOffer,
  SkillRequest,
  SkillRequestReason,
} from "./types.js";

/**
 * The runtime read contract a host embeds: one object whose reads take a `cwd` and
 * see the loose libraries and the enabled installed packages through one trust decision. Each
 * object keeps its own skill cache, scope cache and last snapshots; two objects share nothing.
 *
 * @example
 * const resources = createResources({ trustImports: false });
 * const { items } = resources.skills("/work/app"); // installed packages' skills included
 * const expansion = resources.expandPromptTemplate("/review src/app.ts", "/work/app");
 */
export function createResources(options: ResourcesOptions = {}): Resources {
  const cache = options.cache ?? createSkillCache();
  const settings: PassSettings = {
    trustImports: options.trustImports === true,
    cache,
    toolNames: options.toolNames,
    looseRoots: options.roots,
    // what the scopes' files and copies were, kept by their stamps: each pass checks the stamps
    // and reads again only what changed (a scope's remembered copies are read once)
    scopeCache: createScopeCache(),
  };
  // the last verified snapshot of each project, for listing templates without re-digesting
  let lastSnapshots = new Map<string, PackageSnapshot>();
  let passes = 0;
  let treesDigested = 0;
  const environmentOf = (cwd: string): Environment =>
    resolveEnvironment({ ...options.environment, cwd });
  const read = (cwd: string, snapshot?: PackageSnapshot, bodies = false): ReadPass => {
    const environment = environmentOf(cwd);
    passes += 1;
    const pass = beginPass(environment, { ...settings, bodies, snapshot });
    if (snapshot === undefined) treesDigested += pass.snapshot.treesDigested;
    lastSnapshots.set(environment.project, pass.snapshot);
    return pass;
  };
  const withSnapshotFindings = <R extends { diagnostics: ReadPass["diagnostics"][number][] }>(
    pass: ReadPass,
    result: R,
  ): R => ({ ...result, diagnostics: [...pass.diagnostics, ...result.diagnostics] });
  return {
    read: (cwd, readOptions) => read(cwd, undefined, readOptions?.bodies === true),
    skills: (cwd) => {
      const pass = read(cwd);
      return withSnapshotFindings(pass, pass.load("skill"));
    },
    prompts: (cwd) => {
      const pass = read(cwd);
      return withSnapshotFindings(pass, pass.load("prompt"));
    },
    promptsForDisplay: (cwd) => {
      const pass = read(cwd, lastSnapshots.get(environmentOf(cwd).project));
      return withSnapshotFindings(pass, pass.load("prompt"));
    },
    agents: (cwd) => {
      const pass = read(cwd);
      return withSnapshotFindings(pass, pass.load("agent"));
    },
    fleets: (cwd) => {
      const pass = read(cwd);
      return withSnapshotFindings(pass, pass.load("fleet"));
    },
    expandPromptTemplate: (text, cwd) => {
      if (parsePromptCommand(text) === undefined) return undefined;
      return expandPromptTemplate(text, read(cwd).load("prompt").items);
    },
    parsePendingSkillRequests: (text, cwd) => {
      const asked = askedSkills(text);
      if (asked.names.length === 0) return { text, requests: [] };
      const pass = read(cwd);
      const skills = pass.load("skill").items;
      // the indexes are read only when a name is nowhere on the machine
      let offered: readonly OfferedRow[] | undefined;
      const offerOf = (name: string): SkillOffer | undefined => {
        offered ??= options.offers?.(pass.environment) ?? [];
        return skillOffer(offered, name);
      };
      const requests = asked.names.map((name): SkillRequest => {
        const skill = skills.find((candidate) => candidate.name === name);
        const via = asked.via;
        if (skill !== undefined) {
          const reason = requestReason(skill, via);
          return { name, skill: reason === "found" ? skill : undefined, reason, via };
        }
        if (inDisabledCopy(pass, name)) return { name, skill: undefined, reason: "disabled", via };
        const offer = offerOf(name);
        return offer === undefined
          ? { name, skill: undefined, reason: "unknown", via }
          : { name, skill: undefined, reason: "installable", via, offer };
      });
      return { text: asked.text, requests };
    },
    invokeSkill: (text, cwd, invokeOptions) => {
      const command = parseSkillCommand(text);
      if (command === undefined) return undefined;
      const pass = read(cwd);
      return invokeLoaded(command, pass.load("skill").items, {
        listed: invokeOptions?.listed,
        disabled: (name) => inDisabledCopy(pass, name),
      });
    },
    reload: () => {
      cache.clear();
      lastSnapshots = new Map();
    },
    stats: () => ({ passes, treesDigested }),
  };
}

// --- internal ---

/** The skill names a message asks for, how, and the message without the asking. */
function askedSkills(text: string): {
  names: string[];
  via: SkillRequest["via"];
  text: string;
} {
  const command = parseSkillCommand(text);
  if (command !== undefined) return { names: [command.name], via: "command", text: command.args };
  const names = parseSuggestedSkills(text);
  if (names.length === 0) return { names, via: "suggestion", text };
  const lines = text.split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  return {
    names,
    via: "suggestion",
    text: lines
      .slice(first + 1)
      .join("\n")
      .trim(),
  };
}

/** An operator may run any trusted skill its author left user-invocable; a model only one it may see. */
function requestReason(skill: Skill, via: SkillRequest["via"]): SkillRequestReason {
  if (via === "suggestion") return isModelVisible(skill) ? "found" : "not-model-visible";
  if (!skill.trusted) return "not-model-visible";
  return skill.userInvocable ? "found" : "not-user-invocable";
}

/** The index row offering a skill of this name: a skill package, else a plugin that provides it. */
function skillOffer(rows: readonly OfferedRow[], name: string): SkillOffer | undefined {
  const row =
    rows.find((candidate) => candidate.kind === "skill" && candidate.name === name) ??
    rows.find((candidate) =>
      (candidate.provides ?? []).some((hint) => hint.kind === "skill" && hint.name === name),
    );
  return row === undefined
    ? undefined
    : {
        ref: identityKey(row.kind, row.name),
        description: row.description,
        sourceUrl: row.sourceUrl,
        catalog: row.catalog,
      };
}

/** Whether a disabled (but otherwise sound) installed copy holds a skill of this name. */
function inDisabledCopy(pass: ReadPass, name: string): boolean {
  const roots = pass.snapshot.copies
    .filter((copy) => copy.state === "disabled")
    .flatMap((copy) => packageCopyRoots(copy, "skill"));
  if (roots.length === 0) return false;
  return beginPass(pass.environment, { roots: { skill: roots }, trustImports: true })
    .load("skill")
    .items.some((skill) => skill.name === name);
}
