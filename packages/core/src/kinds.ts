/**
 * The kinds of resources Skillshelf reads, in listing order: the one list every schema, regex,
 * listing and switch derives from. Adding a kind here makes every table keyed by `ResourceKind`
 * fail to compile until it handles the new kind.
 */
export const RESOURCE_KINDS: readonly ["skill", "prompt", "agent", "fleet"] = [
  "skill",
  "prompt",
  "agent",
  "fleet",
];

/** A kind of resource. */
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/**
 * The kinds `link` can put into another agent's folders: those the agent table has folders for
 *.
 */
export const LINKABLE_KINDS: readonly ["skill", "prompt", "agent"] = ["skill", "prompt", "agent"];

/** What a link exposes in another agent's folder: a skill's folder, a template's or recipe's file. */
export type LinkKind = (typeof LINKABLE_KINDS)[number];

/**
 * The kinds a collection offers one file at a time, each file made a package of its own (a skill
 * comes as a folder, a fleet only inside a package).
 */
export const FILE_RESOURCE_KINDS: readonly ["prompt", "agent"] = ["prompt", "agent"];

/** A kind a collection offers one file at a time. */
export type FileResourceKind = (typeof FILE_RESOURCE_KINDS)[number];

/** What a package mainly provides (its manifest's `kind`): `plugin` (any mix) or one resource kind. */
export const PACKAGE_KINDS: readonly ["plugin", ...typeof RESOURCE_KINDS] = [
  "plugin",
  ...RESOURCE_KINDS,
];

/** A package kind. */
export type PackageKind = (typeof PACKAGE_KINDS)[number];

/** How bad an audit finding is, lowest first: what an audit reports and a lock records. */
export const AUDIT_SEVERITIES: readonly ["low", "medium", "high", "critical"] = [
  "low",
  "medium",
  "high",
  "critical",
];

/** An audit finding's severity. */
export type AuditSeverity = (typeof AUDIT_SEVERITIES)[number];

/** The folder a kind of resource lives in, in a library and in a package: `skills`, `prompts`, … */
export type ResourceFolder = `${ResourceKind}s`;

/** Every resource folder, in the order of `RESOURCE_KINDS`. */
export const RESOURCE_FOLDERS: readonly ResourceFolder[] = RESOURCE_KINDS.map(resourceFolder);

/** The folder of a kind of resource: `skill` → `skills`. */
export function resourceFolder(kind: ResourceKind): ResourceFolder {
  return `${kind}s`;
}

/** The kind a resource folder holds: `skills` → `skill`; `undefined` for any other name. */
export function folderKind(folder: string): ResourceKind | undefined {
  return RESOURCE_KINDS.find((kind) => resourceFolder(kind) === folder);
}

/** True for a resource kind. */
export function isResourceKind(value: unknown): value is ResourceKind {
  return (RESOURCE_KINDS as readonly unknown[]).includes(value);
}

/** True for a package kind. */
export function isPackageKind(value: unknown): value is PackageKind {
  return (PACKAGE_KINDS as readonly unknown[]).includes(value);
}
