import { FILE_RESOURCE_KINDS } from "./kinds.js";
import { type PackageSource, SOURCE_FIELDS, type SourceType } from "./types.js";

// the resource a package made of one file of a collection names: `prompt:<name>`
const RESOURCE = new RegExp(`^(${FILE_RESOURCE_KINDS.join("|")}):[a-z0-9][a-z0-9.-]*$`);

/**
 * Why `value` is not a package source as `SOURCE_FIELDS` describes one (a known `type`, each field
 * it always has, no field it does not know, every value non-empty text), or `undefined`.
 */
export function sourceProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "must be an object with a type";
  const { type, resource, ...fields } = value as Record<string, unknown>;
  if (!isSourceType(type)) return `type must be one of ${Object.keys(SOURCE_FIELDS).join(", ")}`;
  const known: Readonly<Record<string, string>> = SOURCE_FIELDS[type];
  for (const [name, kind] of Object.entries(known))
    if (kind !== "optional" && fields[name] === undefined) return `a ${type} source needs ${name}`;
  for (const [name, field] of Object.entries(fields)) {
    if (known[name] === undefined) return `a ${type} source has no field ${name}`;
    if (field !== undefined && (typeof field !== "string" || field === ""))
      return `${name} must be non-empty text`;
  }
  if (resource !== undefined && (typeof resource !== "string" || !RESOURCE.test(resource)))
    return `resource must be <kind>:<name>, a kind of ${FILE_RESOURCE_KINDS.join(", ")}`;
  return undefined;
}

/** True for a package source as `SOURCE_FIELDS` describes one. */
export function isPackageSource(value: unknown): value is PackageSource {
  return sourceProblem(value) === undefined;
}

/**
 * `source` with each of its `folder` fields passed through `map` (a lock writes a local folder
 * relative to its scope's folder, and a restore resolves it again).
 */
export function mapSourceFolders(
  source: PackageSource,
  map: (path: string) => string,
): PackageSource {
  const known: Readonly<Record<string, string>> = SOURCE_FIELDS[source.type];
  const mapped: Record<string, unknown> = { ...source };
  for (const [name, kind] of Object.entries(known)) {
    const path = mapped[name];
    if (kind === "folder" && typeof path === "string") mapped[name] = map(path);
  }
  if (!isPackageSource(mapped)) throw new TypeError(`mapSourceFolders: ${sourceProblem(mapped)}`);
  return mapped;
}

/**
 * `source` with its fields in one order (`type`, the fields as `SOURCE_FIELDS` lists them, then
 * `resource`), however a file wrote them, so what is read back prints as what was written.
 */
export function orderedSource(source: PackageSource): PackageSource {
  const fields: Readonly<Record<string, unknown>> = source;
  const ordered: Record<string, unknown> = { type: source.type };
  for (const name of [...Object.keys(SOURCE_FIELDS[source.type]), "resource"])
    if (fields[name] !== undefined) ordered[name] = fields[name];
  if (!isPackageSource(ordered)) throw new TypeError(`orderedSource: ${sourceProblem(ordered)}`);
  return ordered;
}

function isSourceType(type: unknown): type is SourceType {
  return typeof type === "string" && Object.hasOwn(SOURCE_FIELDS, type);
}
