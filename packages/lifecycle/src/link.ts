import { basename, join } from "node:path";
import {
  agentFolder,
  createDiagnostic,
  type Diagnostic,
  type Environment,
  errorDiagnostic,
  isFolderLike,
  isSkillshelfError,
  LINKABLE_KINDS,
  type LinkKind,
  type PackageScope,
  resolveEnvironment,
  scopeAnchor,
  scopeLibraryDir,
} from "@skillshelf/core";
import { type InventoryResource, readInventory } from "@skillshelf/inventory";
import {
  createScopeCache,
  type LinkRecord,
  readScopeState,
  reviewLink,
  type ScopeCache,
} from "@skillshelf/store";
import { type LinkRequest, linkResources, unlinkResources } from "@skillshelf/store/writers";
import { alsoForField, existingAgentFolders, type LinkForm, linkForms } from "./_link-agents.js";
import { linkPath, namedResources, placeOf, readLinkName, realPath } from "./_link-names.js";
import { applyWrite, type LinkApplyResult, nameInFolder } from "./_link-write.js";
import { optionalSkills } from "./_profiles-file.js";
import { refusal } from "./_refusal.js";

export type { LinkApplyResult } from "./_link-write.js";

import type { Refusal } from "./types.js";

/** What to link (or unlink): resources by name, into which agents' folders of one scope. */
export interface LinkPlanRequest {
  readonly environment: Environment;
  readonly scope: PackageScope;
  /** Skill or prompt template names, as `list` shows them. */
  readonly names: readonly string[];
  /** Agent ids from the agent table, or `all`: the agents whose folder for the kind already exists in the scope. */
  readonly agents: readonly string[] | "all";
  /** Write copies instead of symlinks. */
  readonly copy?: boolean | undefined;
  readonly cache?: ScopeCache | undefined;
}

/** One link a plan would make or take away. */
export interface LinkStep {
  readonly operation: "link" | "unlink";
  readonly name: string;
  readonly kind: LinkKind;
  readonly agent: string;
  /** The other agents asked for that read the same folder: this one link serves them too. */
  readonly alsoFor?: readonly string[] | undefined;
  readonly scope: PackageScope;
  /** The link's path (absolute), and relative to the scope's folder (its key in state and lock). */
  readonly path: string;
  readonly key: string;
  /** What it exposes (absolute), and the installed copy that owns it. */
  readonly target: string;
  readonly package?: string | undefined;
  readonly copy: boolean;
  /** Already as asked: nothing to write. */
  readonly inPlace: boolean;
  readonly refusal?: Refusal | undefined;
}

/** A reviewed set of links: data, shown before anything is written. */
export interface LinkPlan {
  readonly version: 1;
  readonly scope: PackageScope;
  readonly project: string;
  readonly environment: { readonly cwd: string; readonly home: string; readonly configDir: string };
  readonly steps: readonly LinkStep[];
  /** No step is refused. */
  readonly applicable: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Plan links: each name (a resource's name, `kind:name`, the path of its folder or file, or the
 * id of the package whose resources to link: `readLinkName`) is found among the scope's own
 * resources (its library's loose skills and prompt templates, and its enabled installed packages'), never another agent's;
 * each link goes into the agent's folder of the same scope. A name found nowhere is refused
 * (`link_source_unknown`), as is a link the writer would refuse (`link_conflict`, `link_unsafe`,
 * `link_agent_unsupported`): the plan says so before anything is written.
 */
export function planLinks(given: LinkPlanRequest): LinkPlan {
  // every link is reviewed against the scope's state: parse it once for all of them
  const request = { ...given, cache: given.cache ?? createScopeCache() };
  const { environment, scope } = request;
  const resources = scopeResources(environment, scope);
  const steps: LinkStep[] = [];
  const diagnostics: Diagnostic[] = [];
  // a project link reaches every contributor: an optional skill reaches only those who chose it
  const optional = new Set(scope === "project" ? optionalSkills(environment) : []);
  const chosen = request.names.flatMap(
    (name): { name: string; resource: InventoryResource | undefined }[] => {
      const named = namedResources(resources, readLinkName(environment, name));
      return named.length === 0
        ? [{ name, resource: undefined }]
        : named.map((resource) => ({ name, resource }));
    },
  );
  for (const { name, resource } of chosen) {
    if (resource === undefined) {
      steps.push(unknownStep(request, name));
      continue;
    }
    const kind = resource.kind as LinkKind;
    const agents =
      request.agents === "all"
        ? existingAgentFolders(environment, scope, kind, diagnostics)
        : request.agents;
    if (agents.length === 0)
      diagnostics.push(
        createDiagnostic(
          "warning",
          "link_no_agents",
          `no agent has a ${scope} ${kind} folder yet, so --all-agents links ${name} nowhere`,
          { details: { name } },
        ),
      );
    // agents that read one folder (Codex and the shared .agents) share one link
    for (const form of linkForms(scope, kind, agents, request.copy === true)) {
      const step = linkStep(request, resource, form);
      steps.push(
        kind === "skill" && optional.has(resource.name)
          ? {
              ...step,
              refusal: refusal(
                "profile_optional_linked",
                `${resource.name} is optional in this project: a project link would give it to every contributor`,
              ),
            }
          : step,
      );
    }
  }
  return plan(environment, scope, steps, diagnostics);
}

/**
 * Plan taking links away: each name's links recorded in the scope's state (with `agents`, only
 * those in a folder one of them reads: a link made for Cursor is Cline's too, and goes for both),
 * a name being the link's own (its folder or file name, or its path), or what `planLinks` takes:
 * the name (or `kind:name`) of the skill or template it exposes, that one's path, or the id of the
 * package owning it. A name with no link is refused (`link_unknown`).
 */
export function planUnlinks(
  request: Omit<LinkPlanRequest, "agents" | "copy" | "names"> & {
    readonly names: readonly string[];
    readonly agents?: readonly string[] | undefined;
  },
): LinkPlan {
  const { environment, scope } = request;
  const read = readScopeState(environment, scope, request.cache);
  const links = read.ok ? (read.value.state.links ?? {}) : {};
  const base = scopeAnchor(environment, scope);
  const library = scopeLibraryDir(environment, scope);
  // a link answers to its own name and to the name of what it exposes, as `link` took it
  const exposedNames = new Map(
    scopeResources(environment, scope).map((resource) => [placeOf(resource), resource.name]),
  );
  // the agents asked for that read a link's folder: one link serves every agent reading it
  const asked = (record: LinkRecord) =>
    (request.agents ?? []).filter(
      (agent) =>
        agentFolder(agent, scope, record.kind) === agentFolder(record.agent, scope, record.kind),
    );
  const steps: LinkStep[] = [];
  for (const name of request.names) {
    const given = readLinkName(environment, name);
    const names = (key: string, record: LinkRecord) => {
      const exposed = join(library, record.target);
      if (given.path !== undefined)
        return (
          linkPath(join(base, key)) === given.path || realPath(exposed) === realPath(given.path)
        );
      if (given.kind !== undefined && given.kind !== record.kind) return false;
      return (
        linkName(scope, key, record) === given.name ||
        exposedNames.get(exposed) === given.name ||
        (given.kind === undefined && record.package === given.name)
      );
    };
    const found = Object.entries(links).filter(
      ([key, record]) =>
        names(key, record) && (request.agents === undefined || asked(record).length > 0),
    );
    if (found.length === 0)
      steps.push({
        ...unknownStep(request, name),
        operation: "unlink",
        refusal: refusal("link_unknown", `no link to ${name} is recorded in the ${scope} scope`),
      });
    for (const [key, record] of found) {
      const alsoFor = asked(record).filter((agent) => agent !== record.agent);
      steps.push({
        operation: "unlink",
        name,
        kind: record.kind,
        agent: record.agent,
        ...alsoForField(alsoFor),
        scope,
        path: join(base, key),
        key,
        target: join(library, record.target),
        package: record.package,
        copy: record.mode === "copy",
        inPlace: false,
      });
    }
  }
  return plan(environment, scope, steps, read.ok ? [] : read.diagnostics);
}

/** Apply a reviewed link plan with one store write (all links or none). */
export function applyLinks(linkPlan: LinkPlan): LinkApplyResult {
  if (!linkPlan.applicable) {
    const refused = linkPlan.steps.find((step) => step.refusal !== undefined);
    const error =
      refused?.refusal === undefined
        ? createDiagnostic("error", "link_conflict", "the link plan was refused")
        : { ...refused.refusal, ...(refused.path === "" ? {} : { path: refused.path }) };
    return { status: "refused", error };
  }
  const environment = resolveEnvironment({ ...linkPlan.environment, env: {} });
  const { scope } = linkPlan;
  const pending = linkPlan.steps.filter((step) => !step.inPlace);
  if (pending.length === 0) return { status: "unchanged" };
  return applyWrite(() =>
    pending.every((step) => step.operation === "unlink")
      ? unlinkResources({ environment, scope, paths: pending.map((step) => step.key) })
      : linkResources({ environment, scope, links: pending.map(requestOf) }),
  );
}

// --- internal ---

function plan(
  environment: Environment,
  scope: PackageScope,
  steps: readonly LinkStep[],
  diagnostics: readonly Diagnostic[],
): LinkPlan {
  const { cwd, home, configDir, project } = environment;
  return {
    version: 1,
    scope,
    project,
    environment: { cwd, home, configDir },
    steps,
    applicable: steps.every((step) => step.refusal === undefined),
    diagnostics,
  };
}

/** The scope's own linkable resources: its library's loose ones, then its installed copies'. */
function scopeResources(environment: Environment, scope: PackageScope): InventoryResource[] {
  const inventory = readInventory({
    environment,
    include: { packages: false, copies: false, resources: true },
    filter: { kinds: [...LINKABLE_KINDS] },
  });
  const own = (resource: InventoryResource) =>
    resource.path !== undefined &&
    ((resource.source.class === scope && resource.source.scope === scope) ||
      (resource.source.class === "package" && resource.owner?.scope === scope));
  return inventory.resources
    .filter(own)
    .sort((a, b) => Number(a.source.class === "package") - Number(b.source.class === "package"));
}

function linkStep(request: LinkPlanRequest, resource: InventoryResource, form: LinkForm): LinkStep {
  const { agent, alsoFor, copy } = form;
  const { environment, scope } = request;
  const kind = resource.kind as LinkKind;
  const file = resource.path as string;
  const target = placeOf(resource);
  const name = isFolderLike(kind)
    ? basename(target)
    : [...resource.name.split(":").slice(0, -1), basename(file)].join("/");
  const owner = resource.source.class === "package" ? resource.owner?.id : undefined;
  const linkRequest: LinkRequest = {
    agent,
    kind,
    target,
    name,
    package: owner,
    copy,
  };
  const step = {
    operation: "link" as const,
    name: resource.name,
    kind,
    agent,
    ...alsoForField(alsoFor),
    scope,
    target,
    package: owner,
    copy,
  };
  try {
    const reviewed = reviewLink(environment, scope, linkRequest, { cache: request.cache });
    return { ...step, path: reviewed.path, key: reviewed.key, inPlace: reviewed.inPlace };
  } catch (error) {
    if (!isSkillshelfError(error)) throw error;
    const folder = agentFolder(agent, scope, kind) ?? "";
    const key = `${folder}/${name}`;
    return {
      ...step,
      path: error.path ?? join(scopeAnchor(environment, scope), key),
      key,
      inPlace: false,
      refusal: errorDiagnostic(error),
    };
  }
}

function unknownStep(
  request: Pick<LinkPlanRequest, "environment" | "scope">,
  name: string,
): LinkStep {
  return {
    operation: "link",
    name,
    kind: "skill",
    agent: "",
    scope: request.scope,
    path: "",
    key: "",
    target: "",
    copy: false,
    inPlace: false,
    refusal: refusal(
      "link_source_unknown",
      `no skill, prompt template or agent named ${name} is in the ${request.scope} library or its installed packages`,
    ),
  };
}

function requestOf(step: LinkStep): LinkRequest {
  return {
    agent: step.agent,
    kind: step.kind,
    target: step.target,
    name: nameInFolder(step.scope, step.key, step),
    package: step.package,
    copy: step.copy,
  };
}

/** A recorded link's resource name: a skill's folder name, a template's path with `:`. */
function linkName(scope: PackageScope, key: string, record: LinkRecord): string {
  const rest = nameInFolder(scope, key, record);
  return isFolderLike(record.kind) ? rest : rest.replace(/\.md$/i, "").split("/").join(":");
}
