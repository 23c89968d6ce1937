import { isAbsolute, join, relative as relativePath, resolve as resolvePath, sep } from "node:path";
import { AGENTS } from "./agents.js";
import { isInside } from "./containment.js";
import type { Environment, PackageScope, ResourceSource, Scope } from "./types.js";

/**
 * How far a root's content is trusted: `trusted` content may reach the model,
 * `foreign` content (a package imported from another agent's format) only with `trustImports`,
 * `untrusted` content (another agent's folder) never: it is listed as discovery-only.
 */
export type ResourceTrust = "trusted" | "foreign" | "untrusted";

/** An installed package copy, by scope and id: what owns a root and everything found under it. */
export interface PackageCopyRef {
  readonly scope: PackageScope;
  readonly id: string;
}

/** A folder (or, for an explicit path, a file) that a loader reads resources from. */
export interface ResourceRoot {
  readonly path: string;
  readonly scope: Scope;
  readonly source: ResourceSource;
  /** Stable id of this root, for example `user`, `claude-code-project` or `package:user:tools`. */
  readonly origin: string;
  /** Higher wins a name clash among equally trusted, equally owned resources. */
  readonly precedence: number;
  readonly trust: ResourceTrust;
  /**
   * The folder nothing found under this root may resolve outside of, through any symlink. A user
   * or explicit root that itself lies outside its anchor anchors to itself; any other such root is
   * refused. Default: the root itself.
   */
  readonly containment?: string | undefined;
  /**
   * Folders besides `containment` a symlink under the root may lead into: the user's Skillshelf
   * library, which the links it makes in another agent's user folder point at, wherever it is.
   */
  readonly linkTargets?: readonly string[] | undefined;
  /**
   * Folders starting with `.` directly under the root that are read (an agent's own rule, from the
   * agent table, or a host's); every other one is skipped, with an info `dot_folder_skipped` when
   * it holds skills.
   */
  readonly dotFolders?: readonly string[] | undefined;
  /** The installed package copy it is a folder of: what owns everything found under it. */
  readonly owner?: PackageCopyRef | undefined;
}

/** Where a loaded resource was found, and whether its content is trusted. */
export interface ResourcePlace {
  /** The file as discovered, under its root. */
  readonly path: string;
  /** The same file with every symlink resolved. */
  readonly realPath: string;
  readonly scope: Scope;
  readonly source: ResourceSource;
  readonly origin: string;
  readonly precedence: number;
  /** The installed package copy that owns it, when one does. */
  readonly owner?: PackageCopyRef | undefined;
  /** Only trusted content may reach a model. */
  readonly trusted: boolean;
  /**
   * Why it cannot be used, when it cannot (a package reference that names nothing, a template
   * that cannot be read): it is still listed, with this reason, and never reaches a model or
   * expands.
   */
  readonly unavailable?: string | undefined;
}

/** The place of a file found under a root. */
export function resourcePlace(
  root: ResourceRoot,
  file: { readonly path: string; readonly realPath: string },
  trustImports: boolean,
): ResourcePlace {
  return {
    path: file.path,
    realPath: file.realPath,
    scope: root.scope,
    source: root.source,
    origin: root.origin,
    precedence: root.precedence,
    ...(root.owner === undefined ? {} : { owner: root.owner }),
    trusted: isTrustedRoot(root, trustImports),
  };
}

/** Precedence of each kind of root; higher wins among equally trusted, equally owned resources. */
export const ROOT_PRECEDENCE: {
  readonly package: 10;
  readonly agentUser: 20;
  readonly user: 30;
  readonly agentProject: 40;
  readonly project: 50;
  readonly explicit: 60;
} = { package: 10, agentUser: 20, user: 30, agentProject: 40, project: 50, explicit: 60 };

/** Whether a root's content counts as trusted, given the caller's `trustImports` setting. */
export function isTrustedRoot(root: Pick<ResourceRoot, "trust">, trustImports: boolean): boolean {
  return root.trust === "trusted" || (root.trust === "foreign" && trustImports);
}

/**
 * A root of an agent's folder, anchored to home (user) or cwd (project): discovery-only, unless
 * that agent is the host reading it (`Environment.hosts`).
 */
function agentRoot(
  agentId: string,
  scope: PackageScope,
  path: string,
  anchor: string,
  hosts: readonly string[] | undefined,
): ResourceRoot {
  return {
    path,
    scope,
    source: agentId,
    origin: `${agentId}-${scope}`,
    precedence: scope === "user" ? ROOT_PRECEDENCE.agentUser : ROOT_PRECEDENCE.agentProject,
    trust: hosts?.includes(agentId) === true ? "trusted" : "untrusted",
    containment: anchor,
  };
}

/** A root of our own library: trusted, anchored to home (user) or cwd (project). */
function libraryRoot(scope: PackageScope, path: string, anchor: string): ResourceRoot {
  return {
    path,
    scope,
    source: "skillshelf",
    origin: scope,
    precedence: scope === "user" ? ROOT_PRECEDENCE.user : ROOT_PRECEDENCE.project,
    trust: "trusted",
    containment: anchor,
  };
}

/** A path the user named, as a trusted root of the highest precedence. */
export function explicitRoot(path: string): ResourceRoot {
  return {
    path,
    scope: "cli",
    source: "path",
    origin: "explicit",
    precedence: ROOT_PRECEDENCE.explicit,
    trust: "trusted",
  };
}

/**
 * The resource folder of a package copy, as a root a caller passes to a loader. Its origin is
 * `package:<scope>:<id>`, or `package:<id>` for a package folder that is not installed.
 */
export function packageRoot(options: {
  readonly id: string;
  readonly scope?: PackageScope | undefined;
  /** The resource folder inside the copy (its `skills/`, `prompts/`, …). */
  readonly path: string;
  /** The copy's folder: nothing may resolve outside it. */
  readonly packageDir: string;
  readonly trust: Exclude<ResourceTrust, "untrusted">;
}): ResourceRoot {
  return {
    path: options.path,
    scope: "package",
    source: `package:${options.id}`,
    origin:
      options.scope === undefined
        ? `package:${options.id}`
        : `package:${options.scope}:${options.id}`,
    precedence: ROOT_PRECEDENCE.package,
    trust: options.trust,
    containment: options.packageDir,
    ...(options.scope === undefined ? {} : { owner: { scope: options.scope, id: options.id } }),
  };
}

/**
 * Roots a caller built, each one without `containment` anchored to the project it lies in, else
 * to the home it lies in, else to itself: a host's root may then follow symlinks inside its own
 * project (a shared folder linked in), as the default roots do, and never out of it.
 */
export function withDefaultContainment(
  roots: readonly ResourceRoot[],
  environment: Pick<Environment, "project" | "home" | "cwd">,
): ResourceRoot[] {
  return roots.map((root) => {
    if (root.containment !== undefined) return root;
    const path = resolvePath(environment.cwd, root.path);
    const anchor = [environment.project, environment.home].find((folder) => isInside(folder, path));
    return anchor === undefined ? root : { ...root, containment: anchor };
  });
}

/** When cwd is home, user and project agent folders coincide: keep the later (higher) root only. */
function withoutRepeatedRoots<T extends Pick<ResourceRoot, "path">>(roots: readonly T[]): T[] {
  const lastIndex = new Map(roots.map((root, index) => [root.path, index]));
  return roots.filter((root, index) => lastIndex.get(root.path) === index);
}

/**
 * A harness the agent table does not list: its name and its own folders of one kind, the user's
 * relative to home and the project's relative to the project folder (`.acme/skills`).
 */
export interface HostFolders {
  readonly name: string;
  readonly folders: { readonly user?: string | undefined; readonly project?: string | undefined };
}

/**
 * The roots of such a host's own folders: trusted (the host reads them as its own), ranked and
 * anchored as an agent's folders are (home, the project), its name their source. A harness adds
 * them to a loader's default roots.
 * @example loadSkills({ ...environment, roots: [...defaultSkillRoots(environment), ...hostRoots(environment, { name: "acme", folders: { user: ".acme/skills", project: ".acme/skills" } })] })
 */
export function hostRoots(
  environment: Pick<Environment, "home" | "project">,
  host: HostFolders,
): ResourceRoot[] {
  const { home, project } = environment;
  const { user, project: own } = host.folders;
  return [
    ...(user === undefined
      ? []
      : [agentRoot(host.name, "user", join(home, user), home, [host.name])]),
    ...(own === undefined
      ? []
      : [agentRoot(host.name, "project", join(project, own), project, [host.name])]),
  ];
}

/** Which columns of the agent table give another agent's folders for a kind of resource. */
export type AgentFolderColumns =
  | readonly ["userSkillRoot", "projectSkillRoot"]
  | readonly ["userPromptRoot", "projectPromptRoot"]
  | readonly ["userAgentRoot", "projectAgentRoot"];

/**
 * The default roots of one kind of resource, lowest precedence first: every
 * agent's user folder from the table columns (discovery-only), the user library's `<folder>/`,
 * every agent's project folders (discovery-only; for an agent that reads them from `cwd` up to
 * the project root, one root per folder, the nearer one higher), the project library's
 * `<folder>/`. Project roots are anchored to the project folder. Package roots are not
 * included: the caller adds them with `packageRoot`.
 */
export function defaultResourceRoots(
  environment: Pick<Environment, "home" | "cwd" | "project" | "configDir" | "hosts">,
  folder: string,
  columns?: AgentFolderColumns,
): ResourceRoot[] {
  const { home, project, configDir, hosts } = environment;
  const roots: ResourceRoot[] = [];
  if (columns !== undefined)
    for (const agent of AGENTS) {
      const relative = agent[columns[0]];
      if (relative !== undefined)
        roots.push({
          ...agentRoot(agent.id, "user", join(home, relative), home, hosts),
          linkTargets: [configDir],
          ...(columns[0] === "userSkillRoot" && agent.skillDotFolders !== undefined
            ? { dotFolders: agent.skillDotFolders }
            : {}),
        });
    }
  roots.push(libraryRoot("user", join(configDir, folder), home));
  if (columns !== undefined)
    for (const agent of AGENTS) {
      const relative = agent[columns[1]];
      if (relative === undefined) continue;
      const bases = agent.projectFolders === "root" ? [project] : foldersUpToProject(environment);
      bases.forEach((base, depth) => {
        const root = agentRoot(agent.id, "project", join(base, relative), project, hosts);
        roots.push(
          depth === 0
            ? root
            : {
                ...root,
                origin: `${root.origin}:${toPosix(relativePath(project, base))}`,
                precedence: root.precedence + Math.min(depth, MAX_DEPTH_BONUS),
              },
        );
      });
    }
  roots.push(libraryRoot("project", join(project, ".skillshelf", folder), project));
  return withoutRepeatedRoots(roots);
}

// --- internal ---

// nearer folders of a cwd-to-root agent rank higher, staying below the project library's roots
const MAX_DEPTH_BONUS = ROOT_PRECEDENCE.project - ROOT_PRECEDENCE.agentProject - 1;

/** The project folder, then each folder below it down to `cwd` (farthest first); just the project when `cwd` is outside it. */
export function foldersUpToProject(environment: Pick<Environment, "cwd" | "project">): string[] {
  const { cwd, project } = environment;
  const rel = relativePath(project, cwd);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return [project];
  const folders = [project];
  for (const part of rel.split(sep)) folders.push(join(folders.at(-1) as string, part));
  return folders;
}

function toPosix(path: string): string {
  return path.split(sep).join("/");
}
