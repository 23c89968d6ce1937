import type { Code } from "./codes.js";

/** Where a resource was found, from the lowest-precedence place to the highest. */
export type Scope = "package" | "user" | "project" | "cli";

/** Every scope, lowest precedence first. */
export const SCOPES: readonly Scope[] = ["package", "user", "project", "cli"];

export type Severity = "error" | "warning" | "info";

/**
 * One finding about one file or value. `code` is stable and meant for programs (see `CODES`);
 * `message` says what happened, for people, and may change; `hint` says what to do next. `path`
 * names the file (or folder) the finding is about, `line` and `column` (from 1) the place in it.
 */
export interface Diagnostic {
  readonly severity: Severity;
  readonly code: Code;
  readonly message: string;
  readonly path?: string;
  readonly line?: number;
  readonly column?: number;
  readonly hint?: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * What reading something that can fail gives (a file, a manifest, a state): the value with any
 * warnings, or the findings that refused it (at least one error).
 */
export type ReadResult<T> =
  | { readonly ok: true; readonly value: T; readonly diagnostics: readonly Diagnostic[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Where a finding is and what else it carries, besides its severity, code and message. */
export interface DiagnosticPlace {
  readonly path?: string | undefined;
  readonly line?: number | undefined;
  readonly column?: number | undefined;
  /** What to do next, when more precise than the code's default hint. */
  readonly hint?: string | undefined;
  readonly details?: Readonly<Record<string, unknown>> | undefined;
}

/** The environment every disk-touching function works in; resolve it with `resolveEnvironment`. */
export interface Environment {
  /** Absolute working directory. */
  readonly cwd: string;
  /**
   * The project folder (DESIGN §2): the nearest folder at or above `cwd` holding `.skillshelf/`
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
}

/** Anything a caller may override when resolving the environment. */
export interface EnvironmentInput {
  readonly cwd?: string | undefined;
  /** Default: found from `cwd` (see `Environment.project`). */
  readonly project?: string | undefined;
  readonly home?: string | undefined;
  readonly configDir?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
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
 * Where a package's files come from. `local` is a folder on this machine; `git` is a repository at
 * any URL the `git` CLI accepts (https, ssh, `file://`, a local path or bare repository) with an
 * optional ref (branch, tag or commit) and subfolder; `archive` is an HTTP(S) `.tar.gz` with an
 * optional subfolder.
 */
export type PackageSource = (
  | { readonly type: "local"; readonly path: string }
  | {
      readonly type: "git";
      readonly url: string;
      readonly ref?: string | undefined;
      readonly path?: string | undefined;
    }
  | { readonly type: "archive"; readonly url: string; readonly path?: string | undefined }
) & {
  /**
   * For a package made of one prompt template or agent recipe of the collection the rest names:
   * which one (`prompt:<name>`, `agent:<name>`), so staging the source again finds it.
   */
  readonly resource?: string | undefined;
};
