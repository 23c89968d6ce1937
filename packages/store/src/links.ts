import { existsSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import {
  agentFolder,
  type Diagnostic,
  type Environment,
  isFolderLike,
  isInside,
  type LinkKind,
  type PackageScope,
  realpathOrUndefined,
  SkillshelfError,
  scopeAnchor,
  scopeLibraryDir,
} from "@skillshelf/core";
import { linkFault } from "./_link-check.js";
import {
  assertLinkFolderSafe,
  describeFound,
  exposedDigest,
  foundAt,
  isOurLink,
  withLinks,
} from "./_link-files.js";
import { linkMove, SymlinkRefused } from "./_link-moves.js";
import { isRelativeInside } from "./_record-fields.js";
import type { LinkRecord } from "./_record-types.js";
import { commitStep } from "./_step.js";
import type { LinkMove } from "./_step-journal.js";
import { runWriter, type WriterContext } from "./_writer.js";
import type { ScopeCache } from "./cache.js";
import { withTableEntry } from "./cache.js";
import { EMPTY_STATE, readScopeState } from "./state.js";
import type { ScopeState, ScopeTarget } from "./types.js";

export type { LinkFault } from "./_link-check.js";
export { inspectLinks, linkedCopies } from "./_link-check.js";
export type { LinkRecord } from "./_record-types.js";

/** One resource to link into one agent's folder. */
export interface LinkRequest {
  /** An agent id from the agent table. */
  readonly agent: string;
  readonly kind: LinkKind;
  /** The skill folder or prompt file, inside the scope's library folder (a loose resource or an installed copy's). */
  readonly target: string;
  /** Its name in the agent's folder: the skill's folder name, or the template's path below its root (`git/commit.md`). */
  readonly name: string;
  /** The installed copy it belongs to, so removing or updating the copy takes the link along. */
  readonly package?: string | undefined;
  /** Write a copy instead of a symlink. */
  readonly copy?: boolean | undefined;
  /**
   * A copy without the package's manifest (`LockedLink.bare`), for a package installed from the
   * skill folder already at the link's path (`adopt`): that folder is taken as the copy.
   */
  readonly bare?: boolean | undefined;
}

/** What became of one link. */
export interface LinkOutcome {
  /** Relative to the scope's folder (home, or the project): the key in the state and the lock. */
  readonly path: string;
  readonly agent: string;
  readonly status: "linked" | "copied" | "unchanged" | "unlinked";
}

/** What a link writer did. */
export interface LinkWriteResult {
  readonly scope: PackageScope;
  readonly links: readonly LinkOutcome[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Where the link for `request` goes, relative to the scope's folder; refuses an agent with no such folder. */
export function linkKey(
  scope: PackageScope,
  request: Pick<LinkRequest, "agent" | "kind" | "name">,
): string {
  const folder = agentFolder(request.agent, scope, request.kind);
  if (folder === undefined)
    throw new SkillshelfError(
      "link_agent_unsupported",
      `${request.agent} has no ${scope} ${request.kind} folder in the agent table`,
      {
        details: { agent: request.agent },
      },
    );
  const name = request.name.split(sep).join("/");
  if (!isRelativeInside(name) || (isFolderLike(request.kind) && name.includes("/")))
    throw new SkillshelfError(
      "link_target_invalid",
      `${request.name} is not a name a link can have`,
      {
        details: { name: request.name },
      },
    );
  return `${folder}/${name}`;
}

/**
 * Link resources into agents' folders of one scope, all or none, in one locked step:
 * each target must lie inside the scope's library (`link_target_invalid`), each link's folder must
 * be a plain folder inside the scope's base (`link_unsafe`), and nothing is written over what
 * Skillshelf did not make (`link_conflict`, naming the path and what is there). A link already in
 * place is `unchanged`; an identical one left by an interrupted run is adopted. The links are
 * journaled, made, and recorded in the state and the lock in one commit; a crash takes made links
 * away again unless the commit happened. A symlink the file system refuses is made as a copy.
 */
export function linkResources(
  input: ScopeTarget & { readonly links: readonly LinkRequest[] },
): LinkWriteResult {
  return runWriter(input, (context) => {
    let requests = input.links;
    for (;;)
      try {
        return commitLinks(context, requests);
      } catch (error) {
        if (!(error instanceof SymlinkRefused)) throw error;
        const refused = error.key;
        requests = requests.map((request) =>
          linkKey(input.scope, request) === refused ? { ...request, copy: true } : request,
        );
      }
  });
}

/**
 * What `linkResources` would do with `request`, for a plan to show before anything is written:
 * where the link goes and whether it is already in place. Throws what the writer would refuse
 * with (`link_conflict`, `link_unsafe`, `link_target_invalid`, `link_agent_unsupported`).
 */
export function reviewLink(
  environment: Environment,
  scope: PackageScope,
  request: LinkRequest,
  options: {
    readonly cache?: ScopeCache | undefined;
    /** For a package not installed yet: the staged resource `request.target` will be. */
    readonly staged?: string | undefined;
  } = {},
): { readonly key: string; readonly path: string; readonly inPlace: boolean } {
  const read = readScopeState(environment, scope, options.cache);
  const state = read.ok ? read.value.state : EMPTY_STATE;
  const { key, path, existing, replaces } = planLink(
    environment,
    scope,
    state,
    request,
    options.staged,
  );
  // a stale copy of ours is in place, but is to be made again
  return { key, path, inPlace: existing !== undefined && replaces === undefined };
}

/**
 * Take links away (`paths` as the state records them, relative to the scope's folder), all or
 * none, under the scope lock: a link no longer on disk is only forgotten; a symlink re-pointed
 * or a copy edited since it was made is left alone and refused (`link_repointed`,
 * `link_changed`); a path with no record is `link_unknown`.
 */
export function unlinkResources(
  input: ScopeTarget & { readonly paths: readonly string[] },
): LinkWriteResult {
  const { environment, scope } = input;
  const base = scopeAnchor(environment, scope);
  return runWriter(input, (context) => {
    const links = context.state.links ?? {};
    const taken = input.paths.map((key) => {
      const record = links[key];
      if (record === undefined)
        throw new SkillshelfError(
          "link_unknown",
          `${key} is not a link Skillshelf made in the ${scope} scope`,
          {
            path: join(base, key),
          },
        );
      const fault = linkFault(environment, scope, base, key, record);
      // a stale copy is still ours as made: it goes like any other
      if (fault !== undefined && fault.code !== "link_missing" && fault.code !== "copy_stale")
        throw new SkillshelfError(fault.code, fault.message, {
          path: fault.path,
        });
      return { key, present: fault === undefined || fault.code === "copy_stale", record };
    });
    const remaining = taken.reduce((table, link) => withTableEntry(table, link.key, null), links);
    const step = commitStep(context, {
      operation: "unlink",
      state: withLinks(context.state, remaining),
      ids: [],
      linkKeys: taken.map((link) => link.key),
      links: taken.flatMap((link) =>
        link.present ? [linkMove("take", link.key, link.record)] : [],
      ),
    });
    return {
      scope,
      links: taken.map((link) => ({
        path: link.key,
        agent: link.record.agent,
        status: "unlinked" as const,
      })),
      diagnostics: [...context.diagnostics, ...step.diagnostics],
    };
  });
}

/**
 * The links an install makes into the package it installs, in its own step: each request's
 * `target` is where the resource will be (inside `packages/<id>`), `tree` the staged tree that
 * holds it now. Refuses as `linkResources` does (`link_conflict`, `link_unsafe`, …); a link
 * already in place as asked is adopted.
 */
export function stagedLinks(
  target: Pick<ScopeTarget, "environment" | "scope">,
  state: ScopeState,
  staged: { readonly id: string; readonly tree: string },
  requests: readonly LinkRequest[],
): { state: ScopeState; changed: string[]; moves: LinkMove[] } {
  const { environment, scope } = target;
  const copy = join(scopeLibraryDir(environment, scope), "packages", staged.id);
  let links = state.links ?? {};
  const moves: LinkMove[] = [];
  const changed: string[] = [];
  for (const request of requests) {
    const inTree = join(staged.tree, relative(copy, resolve(request.target)));
    const link = planLink(environment, scope, state, request, inTree);
    const record = recordOf(environment, scope, link);
    if (link.existing === undefined && onDisk(state, request))
      moves.push(linkMove("make", link.key, record));
    links = withTableEntry(links, link.key, record);
    changed.push(link.key);
  }
  return { state: withLinks(state, links), changed, moves };
}

// --- internal ---

/** A link of a disabled copy is recorded, and made only once the copy is enabled again. */
function onDisk(state: ScopeState, request: LinkRequest): boolean {
  return request.package === undefined || !state.disabled.includes(request.package);
}

function recordOf(environment: Environment, scope: PackageScope, link: PlannedLink): LinkRecord {
  const { request } = link;
  return {
    agent: request.agent,
    kind: request.kind,
    target: relative(scopeLibraryDir(environment, scope), link.target).split(sep).join("/"),
    ...(request.package === undefined ? {} : { package: request.package }),
    mode: link.existing ?? (request.copy === true ? "copy" : "symlink"),
    ...(request.bare === true && request.copy === true ? { bare: true as const } : {}),
    digest: link.digest,
  };
}

/** One attempt at committing `requests` as a step (see `linkResources`). */
function commitLinks(context: WriterContext, requests: readonly LinkRequest[]): LinkWriteResult {
  const { environment, scope } = context.target;
  const planned = requests.map((request) => planLink(environment, scope, context.state, request));
  const outcomes: LinkOutcome[] = [];
  const moves: LinkMove[] = [];
  let links = context.state.links ?? {};
  for (const link of planned) {
    const record = recordOf(environment, scope, link);
    if (link.existing === undefined && onDisk(context.state, link.request))
      moves.push(linkMove("make", link.key, record));
    else if (link.replaces !== undefined && onDisk(context.state, link.request))
      moves.push(linkMove("refresh", link.key, record, link.replaces));
    links = withTableEntry(links, link.key, record);
    outcomes.push({
      path: link.key,
      agent: link.request.agent,
      status: link.unchanged ? "unchanged" : record.mode === "copy" ? "copied" : "linked",
    });
  }
  const step = commitStep(context, {
    operation: "link",
    state: withLinks(context.state, links),
    ids: [],
    linkKeys: planned.map((link) => link.key),
    links: moves,
  });
  return { scope, links: outcomes, diagnostics: [...context.diagnostics, ...step.diagnostics] };
}

interface PlannedLink {
  readonly key: string;
  readonly path: string;
  readonly target: string;
  readonly request: LinkRequest;
  /** The digest of what the link exposes. */
  readonly digest: string;
  /** How the link already in place was made, when it is ours (or identical to ours). */
  readonly existing: LinkRecord["mode"] | undefined;
  readonly unchanged: boolean;
  /** The digest of the stale copy in place, which the new one replaces. */
  readonly replaces?: string | undefined;
}

function planLink(
  environment: Environment,
  scope: PackageScope,
  state: ScopeState,
  request: LinkRequest,
  staged?: string,
): PlannedLink {
  const base = scopeAnchor(environment, scope);
  const key = linkKey(scope, request);
  const path = join(base, key);
  const target =
    staged === undefined
      ? assertTargetInLibrary(environment, scope, request)
      : assertTargetStaged(environment, scope, request, staged);
  const exposed = staged ?? target;
  assertLinkFolderSafe(base, path);
  const recorded = state.links?.[key];
  const found = foundAt(path);
  const digest = exposedDigest(exposed, request.kind, request.bare);
  if (found.kind === "nothing")
    return { key, path, target, request, digest, existing: undefined, unchanged: false };
  const mode = request.copy === true ? "copy" : "symlink";
  // a symlink is compared by the text it holds, so a staged target is judged as it will be
  const ours = { key, path, target, request, digest, existing: mode } as const;
  if (isOurLink(path, target, { mode, kind: request.kind, digest, bare: request.bare }))
    return { ...ours, unchanged: recorded?.mode === mode };
  // a copy we made, untouched since, of a resource that changed: ours to make again
  if (mode === "copy" && recorded?.mode === "copy" && isOurLink(path, target, recorded))
    return { ...ours, unchanged: false, replaces: recorded.digest };
  throw new SkillshelfError(
    "link_conflict",
    `${path} is ${describeFound(found)}, which Skillshelf did not make`,
    {
      path,
      details: { found: found.kind, ...(found.kind === "symlink" ? { to: found.to } : {}) },
    },
  );
}

/**
 * A link into a package not installed yet: its target must be inside that package's folder
 * (`packages/<id>`, the request's `package`), and `staged` the same resource in the staged tree.
 */
function assertTargetStaged(
  environment: Environment,
  scope: PackageScope,
  request: LinkRequest,
  staged: string,
): string {
  const target = resolve(request.target);
  const copy = join(scopeLibraryDir(environment, scope), "packages", request.package ?? "");
  if (request.package === undefined || !isInside(copy, target) || !existsSync(staged))
    throw new SkillshelfError(
      "link_target_invalid",
      `${target} is not a resource of the package being installed`,
      { path: target },
    );
  return target;
}

function assertTargetInLibrary(
  environment: Environment,
  scope: PackageScope,
  request: LinkRequest,
): string {
  const library = scopeLibraryDir(environment, scope);
  const target = resolve(request.target);
  const real = realpathOrUndefined(target);
  const libraryReal = realpathOrUndefined(library);
  if (
    target === library ||
    !isInside(library, target) ||
    real === undefined ||
    libraryReal === undefined ||
    !isInside(libraryReal, real)
  )
    throw new SkillshelfError(
      "link_target_invalid",
      `${target} is not a resource inside the ${scope} library ${library}`,
      {
        path: target,
      },
    );
  return target;
}
