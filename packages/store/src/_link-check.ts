import { join } from "node:path";
import type { Diagnostic, Environment } from "@skillshelf/core";
import { describeFound, foundAt, isOurLink, linkBase, linkLibrary } from "./_link-files.js";
import type { LinkRecord } from "./_state-schema.js";
import type { ScopeCache } from "./cache.js";
import { readScopeState } from "./state.js";
import type { PackageScope } from "./types.js";

/** One way a recorded link differs from what Skillshelf made. */
export interface LinkFault {
  readonly code: "link_missing" | "link_changed" | "link_repointed";
  readonly path: string;
  readonly agent: string;
  readonly message: string;
}

/**
 * Check every link a scope's state records against the disk (for `verify`): gone
 * (`link_missing`), a symlink pointing elsewhere or replaced by something else
 * (`link_repointed`), a copy whose files changed (`link_changed`). Reads only.
 */
export function inspectLinks(
  environment: Environment,
  scope: PackageScope,
  cache?: ScopeCache,
): {
  readonly links: number;
  readonly faults: readonly LinkFault[];
  readonly diagnostics: readonly Diagnostic[];
} {
  const read = readScopeState(environment, scope, cache);
  if (!read.ok) return { links: 0, faults: [], diagnostics: read.diagnostics };
  const links = read.value.state.links ?? {};
  const base = linkBase(environment, scope);
  const faults = Object.keys(links)
    .sort()
    .flatMap((key) => linkFault(environment, scope, base, key, links[key] as LinkRecord) ?? []);
  return { links: Object.keys(links).length, faults, diagnostics: [] };
}

/** How the link at `key` differs from what its record says Skillshelf made, if it does. */
export function linkFault(
  environment: Environment,
  scope: PackageScope,
  base: string,
  key: string,
  record: LinkRecord,
): LinkFault | undefined {
  const path = join(base, key);
  const target = join(linkLibrary(environment, scope), record.target);
  const found = foundAt(path);
  const fault = (code: LinkFault["code"], message: string): LinkFault => ({
    code,
    path,
    agent: record.agent,
    message,
  });
  if (found.kind === "nothing") return fault("link_missing", `${path} is gone`);
  if (record.mode === "symlink")
    return isOurLink(path, target, record)
      ? undefined
      : fault(
          "link_repointed",
          `${path} is ${describeFound(found)}, not the link to ${target} Skillshelf made`,
        );
  if (found.kind === "symlink")
    return fault(
      "link_repointed",
      `${path} is ${describeFound(found)}, not the copy Skillshelf made`,
    );
  return isOurLink(path, target, record)
    ? undefined
    : fault("link_changed", `the copy at ${path} was edited since Skillshelf made it`);
}
