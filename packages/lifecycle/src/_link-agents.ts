import { lstatSync } from "node:fs";
import { join } from "node:path";
import { AGENTS, createDiagnostic, type Diagnostic, type Environment } from "@skillshelf/core";
import { agentFolder, type LinkKind, linkBase, type PackageScope } from "@skillshelf/store";

/**
 * The agents whose folder for `kind` exists in the scope as a plain folder; one that is a symlink
 * (to another agent's folder, say) is left out with a warning, as the writer would refuse it.
 */
export function existingAgentFolders(
  environment: Environment,
  scope: PackageScope,
  kind: LinkKind,
  diagnostics: Diagnostic[],
): string[] {
  const base = linkBase(environment, scope);
  return AGENTS.flatMap((agent) => {
    const folder = agentFolder(agent.id, scope, kind);
    const path = folder === undefined ? undefined : join(base, folder);
    const stat = path === undefined ? undefined : lstatSync(path, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink())
      diagnostics.push(
        createDiagnostic(
          "warning",
          "link_unsafe",
          `${path} is a symlink, so nothing is linked into it`,
          {
            path,
            details: { agent: agent.id },
          },
        ),
      );
    return stat?.isDirectory() === true ? [agent.id] : [];
  });
}
