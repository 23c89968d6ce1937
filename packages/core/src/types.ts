import type { Code } from "./codes.js";
import type { DetailsOf } from "./details.js";

/** Where a resource was found, from the lowest-precedence place to the highest. */
export type Scope = "package" | "user" | "project" | "cli";

/** Every scope, lowest precedence first. */
export const SCOPES: readonly Scope[] = ["package", "user", "project", "cli"];

/** A scope a person keeps a library, installed packages and links in: the user's or the project's. */
export type PackageScope = Extract<Scope, "user" | "project">;

export type Severity = "error" | "warning" | "info";

/**
 * One finding about one file or value. `code` is stable and meant for programs (see `CODES`);
 * `message` says what happened, for people, and may change; `hint` says what to do next. `path`
 * names the file (or folder) the finding is about, `line` and `column` (from 1) the place in it.
 */
export interface Diagnostic<C extends Code = Code> {
  readonly severity: Severity;
  readonly code: C;
  readonly message: string;
  readonly path?: string;
  readonly line?: number;
  readonly column?: number;
  readonly hint?: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** A finding whose hint is always there: what `createDiagnostic` makes, and what a refusal is. */
export type HintedDiagnostic<C extends Code = Code> = Diagnostic<C> & { readonly hint: string };

/**
 * What reading something that can fail gives (a file, a manifest, a state): the value with any
 * warnings, or the findings that refused it (at least one error).
 */
export type ReadResult<T> =
  | { readonly ok: true; readonly value: T; readonly diagnostics: readonly Diagnostic[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Where a finding is and what else it carries, besides its severity, code and message. */
export interface DiagnosticPlace<C extends Code = Code> {
  readonly path?: string | undefined;
  readonly line?: number | undefined;
  readonly column?: number | undefined;
  /** What to do next, when more precise than the code's default hint. */
  readonly hint?: string | undefined;
  /** Typed by code where a program reads them (`CodeDetails`). */
  readonly details?: DetailsOf<C> | undefined;
}

/** The environment every disk-touching function works in; resolve it with `resolveEnvironment`. */
export interface Environment {
  /** Absolute working directory. */
  readonly cwd: string;
  /**
   * The project folder: the nearest folder at or above `cwd` holding `.skillshelf/`
   * (looked for up to the git work tree's root), else that root, else `cwd`. The project library
   * lives at `<project>/.skillshelf`, and other agents' project folders are read from here.
   */
  readonly project: string;
  /** Absolute home directory; other agents' user folders are relative to it. */
  readonly home: string;
  /** Absolute user library folder (`SKILLSHELF_HOME`, else `$XDG_CONFIG_HOME/skillshelf`, else `~/.config/skillshelf`). */
  readonly configDir: string;
  /** Environment variables as seen by this call. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * The agents (ids of the agent table) that are the host: their own folders are read as trusted,
   * as the host reads them, not as another agent's. Absent or empty: none.
   */
  readonly hosts?: readonly string[] | undefined;
}

/** Anything a caller may override when resolving the environment. */
export interface EnvironmentInput {
  readonly cwd?: string | undefined;
  /** Default: found from `cwd` (see `Environment.project`). */
  readonly project?: string | undefined;
  readonly home?: string | undefined;
  readonly configDir?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * Who is reading: an agent of the agent table by id or alias (`"claude-code"`), or several. A
   * harness is an agent: its own skill, prompt and agent folders are trusted like our library's,
   * where another agent's stay discovery-only. An unknown id is `option_invalid`.
   */
  readonly host?: string | readonly string[] | undefined;
}

/**
 * Which kind of place a resource came from: our own library (`skillshelf`), an installed package
 * (`package:<id>`), an explicit path (`path`), or another agent's folder (its id in the agent table).
 */
export type ResourceSource = "skillshelf" | "path" | `package:${string}` | (string & {});

/** True for a source Skillshelf owns (its library, a package, an explicit path): it beats loose discovery in other agents' folders on a name clash. */
export function isOwnedSource(source: ResourceSource): boolean {
  return source === "skillshelf" || source === "path" || source.startsWith("package:");
}

/**
 * Each kind of package source and its fields besides `type`, as data that the
 * type, the store's schemas and the lock are derived from: `folder` is a folder on this machine
 * (a lock writes it relative to its scope's folder), `text` a value it always has, `optional` one
 * it may have. `local` is a folder; `git` a repository at any URL the `git` CLI accepts with an
 * optional ref (branch, tag or commit) and subfolder; `archive` an HTTPS `.tar.gz` or `.zip`
 * with an optional subfolder and pinned digest; `well-known` a site's `/.well-known` skills index
 * (its URL) with the one skill chosen from it; `npm` a registry package by name, with an optional
 * version range, folder and (pinned by a lock) integrity; `oci` a registry repository with a tag
 * or manifest digest; `mcp` an MCP skills server (`stdio:<command>` or its https URL) with the
 * path of the one skill chosen from it. What is done with each is `sources`'
 * `SOURCE_FETCHERS`.
 */
export const SOURCE_FIELDS = {
  local: { path: "folder" },
  git: { url: "text", ref: "optional", path: "optional" },
  archive: { url: "text", path: "optional", sha256: "optional" },
  "well-known": { url: "text", path: "optional" },
  npm: { name: "text", range: "optional", path: "optional", integrity: "optional" },
  oci: { url: "text", ref: "optional", digest: "optional", path: "optional" },
  mcp: { url: "text", path: "optional" },
} as const;

/** The type of a package source: a key of `SOURCE_FIELDS`. */
export type SourceType = keyof typeof SOURCE_FIELDS;

type FieldsOf<T extends SourceType> = (typeof SOURCE_FIELDS)[T];

/** The package source of one type (of each, for a union), its fields as `SOURCE_FIELDS` gives them. */
export type SourceOf<T extends SourceType> = T extends SourceType ? SourceShape<T> : never;

type SourceShape<T extends SourceType> = { readonly type: T } & {
  readonly [K in keyof FieldsOf<T> as FieldsOf<T>[K] extends "optional" ? never : K]: string;
} & {
  readonly [K in keyof FieldsOf<T> as FieldsOf<T>[K] extends "optional" ? K : never]?:
    | string
    | undefined;
} & {
  /**
   * For a package made of one prompt template or agent recipe of the collection the rest names:
   * which one (`prompt:<name>`, `agent:<name>`), so staging the source again finds it.
   */
  readonly resource?: string | undefined;
};

/** Where a package's files come from: one of the kinds `SOURCE_FIELDS` lists. */
export type PackageSource = SourceOf<SourceType>;
