import { lstatSync } from "node:fs";
import { join } from "node:path";
import {
  AGENTS,
  agentFolder,
  agentNeedsCopy,
  createDiagnostic,
  type Diagnostic,
  type Environment,
  findAgent,
  type LinkKind,
  type PackageScope,
  scopeAnchor,
} from "@skillshelf/core";

/**
 * The agents whose folder for `kind` exists in the scope as a plain folder; one that is a symlink
 * (to another agent's folder, say) is left out with one warning naming every agent reading it, as
 * the writer would refuse it.
 */
export function existingAgentFolders(
  environment: Environment,
  scope: PackageScope,
  kind: LinkKind,
  diagnostics: Diagnostic[],
): string[] {
  const base = scopeAnchor(environment, scope);
  const symlinked = new Map<string, string[]>();
  const agents = AGENTS.flatMap((agent) => {
    const folder = agentFolder(agent.id, scope, kind);
    const path = folder === undefined ? undefined : join(base, folder);
    const stat = path === undefined ? undefined : lstatSync(path, { throwIfNoEntry: false });
    if (path !== undefined && stat?.isSymbolicLink())
      symlinked.set(path, [...(symlinked.get(path) ?? []), agent.id]);
    return stat?.isDirectory() === true ? [agent.id] : [];
  });
  for (const [path, readers] of symlinked)
    diagnostics.push(
      createDiagnostic(
        "warning",
        "link_unsafe",
        `${path} is a symlink, so nothing is linked into it`,
        {
          path,
          details: { agents: readers },
        },
      ),
    );
  return agents;
}

/** One link to make: the agent it is made for, as a copy or a symlink. */
export interface LinkForm {
  readonly agent: string;
  /** The other agents asked for that read the same folder. */
  readonly alsoFor: readonly string[];
  readonly copy: boolean;
}

/** `alsoFor` as a step's field: absent when the link serves only its own agent. */
export function alsoForField(alsoFor: readonly string[]): { readonly alsoFor?: readonly string[] } {
  return alsoFor.length === 0 ? {} : { alsoFor };
}

/**
 * One link per folder for `agents` (agents that read one folder share its link, named by the
 * first, the others in `alsoFor`), each a copy when asked, or when an agent reading that folder
 * for this link does not load a symlinked skill folder (Cursor, Cline: the agent table's
 * `symlinks`).
 */
export function linkForms(
  scope: PackageScope,
  kind: LinkKind,
  agents: readonly string[],
  copyAsked: boolean,
): LinkForm[] {
  const byFolder = new Map<string, string[]>();
  for (const agent of agents) {
    // an agent with no folder for the kind keeps its own entry, for the writer to refuse
    const folder = agentFolder(agent, scope, kind) ?? `\0${agent}`;
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), agent]);
  }
  return [...byFolder.values()].map((group) => ({
    agent: group[0] as string,
    alsoFor: group.slice(1),
    copy:
      copyAsked ||
      (kind === "skill" &&
        group.some((id) => {
          const agent = findAgent(id);
          return agent !== undefined && agentNeedsCopy(agent);
        })),
  }));
}
