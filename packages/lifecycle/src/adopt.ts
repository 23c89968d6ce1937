import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  AGENTS,
  agentFolder,
  createDiagnostic,
  type Diagnostic,
  type Environment,
  type PackageScope,
  scopeAnchor,
} from "@skillshelf/core";
import { readScopeState } from "@skillshelf/store";
import { existingAgentFolders } from "./_link-agents.js";
import type { ChangeRequest } from "./session.js";

/** A skill folder in an agent's folder of a scope that nothing installed accounts for. */
export interface Unadopted {
  /** The agent whose folder holds it (the first in the table of those reading that folder). */
  readonly agent: string;
  readonly name: string;
  /** The skill's folder. */
  readonly path: string;
}

/** What `findUnadopted` found: the skills to adopt, and what it left alone and why. */
export interface UnadoptedSkills {
  readonly found: readonly Unadopted[];
  /**
   * `adopt_skipped` warnings (a symlink another tool made, a name a package already has), or
   * the errors of a scope state that cannot be read (then nothing is found).
   */
  readonly skipped: readonly Diagnostic[];
}

/**
 * The skills in agents' folders of `scope` that no package accounts for: each folder holding a
 * `SKILL.md` that is not a link or copy Skillshelf recorded (copied by hand, or by another
 * tool). A symlink is left alone (what it points at is adopted where it lies), and so is a name
 * an installed package already has; only `agents` are looked in when given.
 */
export function findUnadopted(
  environment: Environment,
  scope: PackageScope,
  agents?: readonly string[],
): UnadoptedSkills {
  const skipped: Diagnostic[] = [];
  const base = scopeAnchor(environment, scope);
  const read = readScopeState(environment, scope);
  if (!read.ok) return { found: [], skipped: read.diagnostics };
  const { state } = read.value;
  const recorded = new Set(Object.keys(state.links ?? {}));
  const installed = new Set(Object.keys(state.installed));
  const linkFolders = new Set<string>();
  const found: Unadopted[] = [];
  for (const agent of existingAgentFolders(environment, scope, "skill", skipped)) {
    if (agents !== undefined && !agents.includes(agent)) continue;
    const within = agentFolder(agent, scope, "skill") ?? "";
    if (linkFolders.has(within)) continue;
    linkFolders.add(within);
    for (const { name, path, link } of skillFolders(join(base, within))) {
      // a link key is the agent's folder and the name, as the writer records it
      if (recorded.has(`${within}/${name}`)) continue;
      if (link) {
        skipped.push(skip(path, "link", `${path} is a symlink: adopt what it points at instead`));
        continue;
      }
      if (installed.has(name)) {
        skipped.push(
          skip(path, "taken", `a package ${name} is installed already: ${path} is left as it is`),
        );
        continue;
      }
      found.push({ agent, name, path });
    }
  }
  // the other folders agents read skills from in the scope hold no copy Skillshelf can record
  for (const within of otherSkillFolders(scope, agents))
    for (const { path, link } of skillFolders(join(base, within)))
      if (!link)
        skipped.push(
          skip(
            path,
            "folder",
            `${path} is not in an agent's main skill folder: move it there to adopt it`,
          ),
        );
  return { found, skipped };
}

/** One install that adopts skills of one agent's folder: the fields of a `ChangeRequest` it sets. */
export interface AdoptRequest extends Pick<ChangeRequest, "command" | "targets"> {
  readonly agent: string;
  readonly links: { readonly agents: readonly [string]; readonly copy: true; readonly bare: true };
}

/**
 * The installs that adopt `found`, one per agent: each folder installed as a package from
 * itself (a local source, so `update` reads it there again) and recorded as that agent's copy
 * of it, which leaves the folder's bytes exactly as they are and lets `verify` see any edit.
 */
export function adoptRequests(found: readonly Unadopted[]): readonly AdoptRequest[] {
  const byAgent = new Map<string, string[]>();
  for (const skill of found)
    byAgent.set(skill.agent, [...(byAgent.get(skill.agent) ?? []), skill.path]);
  return [...byAgent].map(([agent, targets]) => ({
    command: "install",
    agent,
    targets,
    links: { agents: [agent], copy: true, bare: true },
  }));
}

/** An entry of an agent's skill folder: a skill folder, or a symlink (`link`). */
interface FolderEntry {
  readonly name: string;
  readonly path: string;
  readonly link: boolean;
}

/** The entries of `folder` that are skill folders (holding a `SKILL.md`) or symlinks. */
function skillFolders(folder: string): FolderEntry[] {
  const stat = lstatSync(folder, { throwIfNoEntry: false });
  if (stat?.isDirectory() !== true) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry): FolderEntry[] => {
    const path = join(folder, entry.name);
    if (entry.name.startsWith(".")) return [];
    if (entry.isSymbolicLink()) return [{ name: entry.name, path, link: true }];
    const skill = entry.isDirectory() ? join(path, "SKILL.md") : undefined;
    return skill !== undefined && lstatSync(skill, { throwIfNoEntry: false })?.isFile() === true
      ? [{ name: entry.name, path, link: false }]
      : [];
  });
}

/**
 * The skill folders `agents` (default: all) read in the scope that are no agent's main one,
 * where links are recorded (Codex's `~/.codex/skills`).
 */
function otherSkillFolders(scope: PackageScope, agents: readonly string[] | undefined): string[] {
  const main = new Set(AGENTS.map((agent) => agentFolder(agent.id, scope, "skill")));
  const others = AGENTS.filter((agent) => agents === undefined || agents.includes(agent.id))
    .flatMap((agent) => agent.view.skillRoots)
    .filter((root) => (root.base === "home") === (scope === "user") && !main.has(root.path))
    .map((root) => root.path);
  return [...new Set(others)];
}

function skip(path: string, reason: "link" | "taken" | "folder", message: string): Diagnostic {
  return createDiagnostic("warning", "adopt_skipped", message, { path, details: { reason } });
}
