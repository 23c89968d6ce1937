import { isAbsolute, relative, sep } from "node:path";
import { identityKey, isInside, isResourceKind, type ResourceKind } from "@skillshelf/core";

/** The parts of a resource key. */
export interface ResourceKeyParts {
  readonly kind: ResourceKind;
  readonly name: string;
  /** The id of the root it was found under: `user`, `project`, `claude-code-project`, `package:user:pdf`, … */
  readonly sourceId: string;
  /** `/`-separated, relative to the first anchor holding the file; absent in a key that names every file of that name under the source. */
  readonly relativePath?: string | undefined;
}

/**
 * A resource's stable key, `kind:name@sourceId#relativePath`. The path is made relative to the
 * first of `anchors` that holds it (the owning copy's folder, then the scope's library, then the
 * project, then home), else it is the file name, so two files of one name under one root keep
 * distinct keys.
 *
 * @example
 * resourceKey({ kind: "skill", name: "pdf", sourceId: "project", path: "/p/.skillshelf/skills/pdf/SKILL.md" }, ["/p"])
 * // "skill:pdf@project#.skillshelf/skills/pdf/SKILL.md"
 */
export function resourceKey(
  resource: {
    readonly kind: ResourceKind;
    readonly name: string;
    readonly sourceId: string;
    readonly path: string;
  },
  anchors: readonly string[],
): string {
  return `${identityKey(resource.kind, resource.name)}@${resource.sourceId}#${relativeToAnchors(resource.path, anchors)}`;
}

/**
 * The parts of a resource key, or `undefined` when it is not one: split at the first `#`, then at
 * the last `@` and the first `:` before it; the kind must be a resource kind. Round-trips
 * `resourceKey`.
 */
export function parseResourceKey(key: string): ResourceKeyParts | undefined {
  const hash = key.indexOf("#");
  const head = hash === -1 ? key : key.slice(0, hash);
  const relativePath = hash === -1 ? undefined : key.slice(hash + 1);
  const at = head.lastIndexOf("@");
  if (at === -1) return undefined;
  const named = head.slice(0, at);
  const sourceId = head.slice(at + 1);
  const colon = named.indexOf(":");
  if (colon === -1) return undefined;
  const kind = named.slice(0, colon);
  const name = named.slice(colon + 1);
  if (!isResourceKind(kind) || name === "" || sourceId === "") return undefined;
  return {
    kind,
    name,
    sourceId,
    ...(relativePath === undefined || relativePath === "" ? {} : { relativePath }),
  };
}

// --- internal ---

function relativeToAnchors(path: string, anchors: readonly string[]): string {
  for (const anchor of anchors)
    if (isAbsolute(anchor) && isInside(anchor, path) && anchor !== path)
      return relative(anchor, path).split(sep).join("/");
  return path.split(sep).at(-1) ?? path;
}
