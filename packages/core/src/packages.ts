import { canonicalJsonFile } from "./canonical-json.js";
import { type FileResourceKind, isPackageKind, type PackageKind, resourceFolder } from "./kinds.js";

/** Longest package id. */
export const MAX_PACKAGE_ID_LENGTH = 64;

const PACKAGE_ID = /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/;
const REQUIREMENT = /^([a-z]+):([a-z0-9][a-z0-9.-]*)$/;
// SemVer 2.0.0, from the grammar at semver.org: no leading zeros, optional pre-release and build.
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/**
 * True for a valid package id: 1–64 characters of lowercase letters, digits, `.` and `-`, starting
 * and ending with a letter or digit, with no `--` or `..`, and none of `RESERVED_IDS` (the scope's
 * state file lives beside the copies; `constructor` is a name every JavaScript object answers to).
 * An id is also the folder name of an installed copy.
 */
export function isPackageId(id: string): boolean {
  return (
    id.length <= MAX_PACKAGE_ID_LENGTH &&
    PACKAGE_ID.test(id) &&
    !id.includes("--") &&
    !id.includes("..") &&
    !RESERVED_IDS.includes(id)
  );
}

/**
 * Names that are never package ids: `state.json`, and the keys a plain JavaScript object inherits
 * (a lookup of a missing `constructor` finds a function). `prototype` is not one: only functions
 * have it, and a skill of that name is common.
 */
const RESERVED_IDS: readonly string[] = ["state.json", "constructor", "__proto__"];

/** A parsed requirement: the kind and id of the package another package needs. */
export interface RequirementRef {
  readonly kind: PackageKind;
  readonly name: string;
}

/**
 * Parse a typed requirement `kind:name` (`skill:pdf-tools`, `plugin:review`), or `undefined` when
 * it is malformed. The name must also be a valid package id.
 */
export function parseRequirementRef(text: string): RequirementRef | undefined {
  const match = REQUIREMENT.exec(text);
  const kind = match?.[1];
  const name = match?.[2];
  if (!isPackageKind(kind) || name === undefined || !isPackageId(name)) return undefined;
  return { kind, name };
}

/** The `kind:name` text of a requirement. */
export function formatRequirementRef(ref: RequirementRef): string {
  return identityKey(ref.kind, ref.name);
}

/**
 * The one text an identity is written as — a package's or a resource's kind and name, `skill:pdf`
 * — in listings, lock keys, maps and messages: built here alone, so every place agrees.
 */
export function identityKey(kind: string, name: string): string {
  return `${kind}:${name}`;
}

/** One installed copy of a package: its id in a scope (`user`, `project`). */
export interface CopyRef {
  readonly scope: string;
  readonly id: string;
}

/**
 * The one text a copy is written as, `user:pdf`: in maps, messages and SBOM references, built
 * here alone as `identityKey` builds a package's.
 */
export function copyKey(copy: CopyRef): string {
  return `${copy.scope}:${copy.id}`;
}

/** The name part of `kind:name`, or the text itself when it names no kind. */
export function identityName(text: string): string {
  const colon = text.indexOf(":");
  return colon === -1 ? text : text.slice(colon + 1);
}

/** True for an explicit SemVer 2.0.0 version (`1.2.3`, `1.0.0-rc.1+build.5`); ranges are not versions. */
export function isSemver(version: string): boolean {
  return SEMVER.test(version);
}

/** What a skill gives the `skill` package made of its folder (a manifest-less collection's skill). */
export interface SkillPackageFacts {
  /** The skill's `name`, a package id: the package's id. */
  readonly name: string;
  /** Explicit SemVer. */
  readonly version: string;
  readonly description: string;
  readonly license?: string | undefined;
}

/**
 * The text of the `plugin.json` that makes a skill's folder a `skill` package of its own, as
 * canonical JSON: the skill's facts, the folder itself as the package's skills folder and its
 * `SKILL.md` as the one component. `sources` writes it; `store` knows what it declares.
 */
export function skillPackageManifestText(skill: SkillPackageFacts): string {
  return canonicalJsonFile({
    name: skill.name,
    version: skill.version,
    description: skill.description,
    ...(skill.license === undefined ? {} : { license: skill.license }),
    extensions: {
      skillshelf: {
        manifestVersion: 1,
        kind: "skill",
        resources: { skills: "." },
        components: [{ kind: "skill", id: skill.name, path: "SKILL.md" }],
      },
    },
  });
}

/** A prompt template or agent recipe of a collection, made a package of its own. */
export interface ResourcePackageFacts extends SkillPackageFacts {
  readonly kind: FileResourceKind;
  /** Its path below its kind's folder in the package (`git/commit.md`), which names it. */
  readonly within: string;
}

/**
 * The text of the `plugin.json` that makes one prompt template or agent recipe of a collection a
 * `prompt` or `agent` package of its own, as canonical JSON: the file sits in its kind's folder
 * (`prompts/`, `agents/`) at the path it had below its collection's folder, so a template keeps
 * its namespaced name, and is the package's one component.
 */
export function resourcePackageManifestText(item: ResourcePackageFacts): string {
  const folder = resourceFolder(item.kind);
  return canonicalJsonFile({
    name: item.name,
    version: item.version,
    description: item.description,
    ...(item.license === undefined ? {} : { license: item.license }),
    extensions: {
      skillshelf: {
        manifestVersion: 1,
        kind: item.kind,
        resources: { [folder]: folder },
        components: [{ kind: item.kind, id: item.name, path: `${folder}/${item.within}` }],
      },
    },
  });
}
