import { readdirSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import {
  AGENTS,
  agentFolder,
  type Diagnostic,
  type Environment,
  isFolderLike,
  isInside,
  LINKABLE_KINDS,
  type PackageScope,
  scopeAnchor,
  scopeLibraryDir,
} from "@skillshelf/core";
import { describeFound, exposedDigest, foundAt, isOurLink } from "./_link-files.js";
import type { LinkRecord } from "./_record-types.js";
import { hasStepJournal, readStepJournal, STEP_JOURNAL } from "./_step-journal.js";
import type { ScopeCache } from "./cache.js";
import { readLockFile } from "./lockfile.js";
import { packagesDir } from "./scopes.js";
import { readScopeState } from "./state.js";

/** One way a recorded link differs from what Skillshelf made. */
export interface LinkFault {
  readonly code:
    | "link_missing"
    | "link_changed"
    | "link_repointed"
    | "link_unrecorded"
    | "link_to_disabled"
    | "copy_stale";
  readonly path: string;
  readonly agent: string;
  readonly message: string;
}

/**
 * Check every link a scope's state records against the disk (for `verify`): gone
 * (`link_missing`), a symlink pointing elsewhere or replaced by something else
 * (`link_repointed`), a copy whose files changed (`link_changed`), one of a disabled copy still
 * there (`link_to_disabled`, which the agent still loads); and every symlink in an
 * agent's folder of the scope that leads into the scope's library but is recorded nowhere
 * (`link_unrecorded`: left by a crash of an older version, or made by hand). Reads only.
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
  const base = scopeAnchor(environment, scope);
  // the links an unsettled step changes are the step's to settle, not faults
  const pending = pendingLinkKeys(environment, scope);
  const disabled = new Set(read.value.state.disabled);
  const faults = [
    ...Object.keys(links)
      .sort()
      .flatMap((key) => {
        const record = links[key] as LinkRecord;
        return record.package !== undefined && disabled.has(record.package)
          ? (disabledLinkFault(base, key, record) ?? [])
          : (linkFault(environment, scope, base, key, record) ?? []);
      }),
    // a link the lock lists but the state does not (a fresh clone's) is the lock's to make
    ...unrecordedLinks(environment, scope, { ...lockedLinks(environment, scope, cache), ...links }),
  ].filter((fault) => !pending.has(relative(base, fault.path).split(sep).join("/")));
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
  const target = join(scopeLibraryDir(environment, scope), record.target);
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
  if (!isOurLink(path, target, record))
    return fault("link_changed", `the copy at ${path} was edited since Skillshelf made it`);
  // the copy is as made; what it copies may have changed since
  return exposedDigestOrUndefined(target, record) === record.digest
    ? undefined
    : fault(
        "copy_stale",
        `the copy at ${path} is older than ${target}, which changed since it was copied`,
      );
}

/**
 * The links a scope's state records as copies of a skill, each copy's folder to the folder it
 * copies (absolute): what a loader counts as one skill seen twice (`loadSkills`' `copiesOf`).
 * A copy left behind by a change of what it copies (`copy_stale`) is not: it is another skill now.
 */
export function linkedCopies(
  environment: Environment,
  scope: PackageScope,
  cache?: ScopeCache,
): [copy: string, of: string][] {
  const read = readScopeState(environment, scope, cache);
  if (!read.ok) return [];
  const base = scopeAnchor(environment, scope);
  const library = scopeLibraryDir(environment, scope);
  return Object.entries(read.value.state.links ?? {})
    .filter(
      ([, record]) =>
        record.mode === "copy" &&
        isFolderLike(record.kind) &&
        exposedDigestOrUndefined(join(library, record.target), record) === record.digest,
    )
    .map(([key, record]) => [join(base, key), join(library, record.target)]);
}

// --- internal ---

function exposedDigestOrUndefined(
  path: string,
  record: Pick<LinkRecord, "kind" | "bare">,
): string | undefined {
  try {
    return exposedDigest(path, record.kind, record.bare);
  } catch {
    return undefined;
  }
}

/** A link of a disabled copy should not be on disk (`link_to_disabled` when it is). */
function disabledLinkFault(base: string, key: string, record: LinkRecord): LinkFault | undefined {
  const path = join(base, key);
  if (foundAt(path).kind === "nothing") return undefined;
  return {
    code: "link_to_disabled",
    path,
    agent: record.agent,
    message: `${path} is a link to ${record.package}, which is disabled: the agent still loads it`,
  };
}

/** The link keys the scope's unsettled step (if any) makes, takes or refreshes. */
function pendingLinkKeys(environment: Environment, scope: PackageScope): Set<string> {
  const dir = packagesDir(environment, scope);
  const found = readStepJournal(dir, scope, hasStepJournal(dir) ? [STEP_JOURNAL] : []);
  return new Set(
    found === undefined || "unreadable" in found ? [] : found.journal.links.map((move) => move.key),
  );
}

/**
 * The symlinks in the agents' folders of a scope (each folder once, however many agents share it)
 * that lead into the scope's library and that no link record names.
 */
function unrecordedLinks(
  environment: Environment,
  scope: PackageScope,
  links: Readonly<Record<string, unknown>>,
): LinkFault[] {
  const base = scopeAnchor(environment, scope);
  const library = scopeLibraryDir(environment, scope);
  const folders = new Map<string, string>();
  for (const agent of AGENTS)
    for (const kind of LINKABLE_KINDS) {
      const folder = agentFolder(agent.id, scope, kind);
      if (folder !== undefined && !folders.has(folder)) folders.set(folder, agent.id);
    }
  const faults: LinkFault[] = [];
  for (const [folder, agent] of folders) {
    let names: string[];
    try {
      names = readdirSync(join(base, folder));
    } catch {
      continue;
    }
    for (const name of names.sort()) {
      const key = `${folder}/${name}`;
      const path = join(base, key);
      const found = foundAt(path);
      if (found.kind !== "symlink" || links[key] !== undefined) continue;
      if (!isInside(library, resolve(dirname(path), found.to))) continue;
      faults.push({
        code: "link_unrecorded",
        path,
        agent,
        message: `${path} links into the ${scope} library, but Skillshelf has no record of it`,
      });
    }
  }
  return faults;
}

/** The links a scope's lock lists, by key (none when it cannot be read: its own finding). */
function lockedLinks(
  environment: Environment,
  scope: PackageScope,
  cache: ScopeCache | undefined,
): Readonly<Record<string, unknown>> {
  const lock = readLockFile(environment, scope, cache);
  return lock.ok ? (lock.value.value.links ?? {}) : {};
}
