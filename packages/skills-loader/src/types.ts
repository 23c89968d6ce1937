import type { CollisionGroup } from "@skillshelf/collision";
import type {
  CodesOf,
  Diagnostic,
  EnvironmentInput,
  FileStamp,
  ResourcePlace,
  ResourceRoot,
} from "@skillshelf/core";
import type { SkillCache } from "./cache.js";

/** Provenance stamped into a skill's `skillshelf:` block (or, in the flat legacy form, at top level). */
export interface SkillProvenance {
  readonly installUrl?: string;
  readonly registryId?: string;
  readonly registryUrl?: string;
  readonly installedAt?: string;
  readonly updatedAt?: string;
  readonly installedHash?: string;
  readonly audit?: "pass" | "warn" | "fail" | "unknown";
  /** A name, never prose: up to 64 letters, digits and `_ . @ / : + -` (`worker`, `skillshelf`). */
  readonly installedBy?: string;
}

/** One loaded skill. Bodies are not kept unless `includeBody` was asked for. */
export interface Skill extends ResourcePlace {
  readonly name: string;
  readonly description: string;
  /** The folder holding the skill file: where its `references/`, `scripts/` and `assets/` live. */
  readonly baseDir: string;
  /** The folder name (or, for a loose file, the file name without `.md`) the name defaults to. */
  readonly pathSubject: string;
  /** `disable-model-invocation: true`: only the operator can activate it. */
  readonly disableModelInvocation: boolean;
  /** False for `user-invocable: false` (Claude Code's key): only the model may start it, never `/skill <name>`. */
  readonly userInvocable: boolean;
  /** `/skill <name>` can name it; a skill that cannot is listed but never offered to a model. */
  readonly addressable: boolean;
  /** The skill file as it was when read: `readSkillBody` reads the body only while it holds. */
  readonly stamp: FileStamp;
  /** sha256 of the file's bytes, when the load kept the body (`includeBody`); `skillFileHash` reads it otherwise. */
  readonly hash?: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly allowedTools?: readonly string[];
  readonly disallowedTools?: readonly string[];
  /** `kind:name` references from `requires`. */
  readonly requires: readonly string[];
  readonly provenance?: SkillProvenance;
  readonly body?: string;
}

/** Input of `loadSkills`; every field is optional. */
export interface LoadSkillsInput extends EnvironmentInput {
  /**
   * Folders a skill was copied into by Skillshelf (a link made as a copy), each to the folder it
   * is a copy of: the copy is that skill seen again (`duplicate_file`), not a clash.
   */
  readonly copiesOf?: ReadonlyMap<string, string> | undefined;
  /** Replaces the default roots (see `defaultSkillRoots`). */
  readonly roots?: readonly ResourceRoot[] | undefined;
  /** Drop the default roots but still load `explicitSkillPaths`. */
  readonly disableDiscovery?: boolean | undefined;
  /** Skill files, skill folders or folders of skill folders named by the user (relative to `cwd`). */
  readonly explicitSkillPaths?: readonly string[] | undefined;
  /**
   * Folders of installed package copies. An explicit path inside one is refused
   * (`package_inactive`) unless it lies under a package root being loaded, whose trust it takes.
   */
  readonly packageDirs?: readonly string[] | undefined;
  /** Let skills from `foreign` packages reach the model. Default false. */
  readonly trustImports?: boolean | undefined;
  /** The host's tool names; `allowed-tools` and `disallowed-tools` are resolved against them. */
  readonly toolNames?: readonly string[] | undefined;
  /** Keep each skill's body on the record: for every root, or for the roots the function picks. Default false. */
  readonly includeBody?: boolean | ((root: ResourceRoot) => boolean) | undefined;
  /** A cache from `createSkillCache()`, reused across loads so unchanged files are not read again. */
  readonly cache?: SkillCache | undefined;
}

/** The codes `loadSkills` can report: its own, the name-clash resolver's and core's (walk, YAML). */
export type LoadSkillsCode = CodesOf<"skills-loader" | "collision" | "core">;

/** What `loadSkills` returns. */
export interface LoadSkillsResult {
  /** One winner per name, sorted by name. */
  readonly items: Skill[];
  /** Every diagnostic, sorted by path, then code; a `switch` on `code` can be exhaustive. */
  readonly diagnostics: Diagnostic<LoadSkillsCode>[];
  /** Names with more than one candidate: the winner and the losers, best first, with reasons. */
  readonly collisions: CollisionGroup<Skill>[];
}
