import { AGENTS, type ResourceSource, type SourceType } from "@skillshelf/core";
import { folderInPlace, type IndexRow, type SourceOrigin, sourceOrigin } from "@skillshelf/sources";
import type { InstallRecord, PackageFormat } from "@skillshelf/store";

/**
 * Where something came from, as evidence shows it: offered by an index, installed from a local
 * folder, a git repository or an archive, imported from another agent's plugin, or a loose file in
 * a library or an agent's folder.
 */
export type Origin =
  | { readonly kind: "index"; readonly index: string; readonly source: SourceType }
  | SourceOrigin
  | { readonly kind: "import"; readonly path: string }
  | { readonly kind: "loose"; readonly root: string };

/** The format something is written in: ours, a Claude Code plugin, or the id of the agent whose folder it is in. */
export type OriginFormat = PackageFormat | (string & {});

/** The evidence an origin is decided from. Author metadata is never part of it. */
export type OriginEvidence =
  | { readonly kind: "row"; readonly row: IndexRow }
  | { readonly kind: "record"; readonly record: InstallRecord }
  | {
      readonly kind: "root";
      readonly root: { readonly path: string; readonly source: ResourceSource };
    };

/**
 * The one rule turning discovery, install and import evidence into an origin and a format. A row
 * is `index`; a record installed through an index row is `index`, a Claude Code plugin installed
 * from no index is an `import`, any other record is its source's type; a loose file is `loose`,
 * in our format for our libraries and in the agent's for another agent's folder (an explicit path
 * is `local`).
 */
export function classifyOrigin(evidence: OriginEvidence): {
  origin: Origin;
  format: OriginFormat;
} {
  if (evidence.kind === "row") {
    const { row } = evidence;
    return {
      origin: { kind: "index", index: row.index, source: row.source.type },
      format: row.format,
    };
  }
  if (evidence.kind === "record") {
    const { record } = evidence;
    const { source, commit, index } = record.origin;
    if (index !== undefined)
      return { origin: { kind: "index", index, source: source.type }, format: record.format };
    const folder = folderInPlace(source);
    if (record.format === "claude-code" && folder !== undefined)
      return { origin: { kind: "import", path: folder }, format: record.format };
    return { origin: sourceOrigin(source, commit), format: record.format };
  }
  const { root } = evidence;
  if (root.source === "path")
    return { origin: { kind: "local", path: root.path }, format: "skillshelf" };
  const agent = AGENTS.find((entry) => entry.id === root.source);
  return {
    origin: { kind: "loose", root: root.path },
    format: agent === undefined ? "skillshelf" : agent.id,
  };
}
