/** Where a resource was found, from the lowest-precedence place to the highest. */
export type Scope = "package" | "user" | "project" | "cli";

/** Every scope, lowest precedence first. */
export const SCOPES: readonly Scope[] = ["package", "user", "project", "cli"];

/** The kinds of resources Skillshelf reads. */
export type ResourceKind = "skill" | "prompt" | "agent" | "fleet";

/** Every resource kind, in listing order. */
export const RESOURCE_KINDS: readonly ResourceKind[] = ["skill", "prompt", "agent", "fleet"];

/** What a package mainly provides (its manifest's `kind`). */
export type PackageKind = "plugin" | "skill" | "agent" | "prompt" | "fleet";

export type Severity = "error" | "warning" | "info";

/**
 * One finding about one file or value. `code` is stable and meant for programs; `message` is for
 * people and may change. `path` names the file (or folder) the finding is about.
 */
export interface Diagnostic {
  readonly severity: Severity;
  readonly code: string;
  readonly message: string;
  readonly path?: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** The environment every disk-touching function works in; resolve it with `resolveEnvironment`. */
export interface Environment {
  /** Absolute working directory; the project library lives at `<cwd>/.skillshelf`. */
  readonly cwd: string;
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
  readonly home?: string | undefined;
  readonly configDir?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * Which kind of place a resource came from: our own library (`skillshelf`), an installed package
 * (`package`), an explicit path (`path`), or another agent's folder (its id in the agent table).
 */
export type ResourceSource = "skillshelf" | "package" | "path" | (string & {});

/** Sources Skillshelf owns: they beat loose discovery in other agents' folders on a name clash. */
export const OWNED_SOURCES: readonly ResourceSource[] = ["skillshelf", "package", "path"];

/**
 * Where a package's files come from. `local` is a folder on this machine; `git` is a repository at
 * any URL the `git` CLI accepts (https, ssh, `file://`, a local path or bare repository) with an
 * optional ref (branch, tag or commit) and subfolder; `archive` is an HTTP(S) `.tar.gz` with an
 * optional subfolder.
 */
export type PackageSource =
  | { readonly type: "local"; readonly path: string }
  | {
      readonly type: "git";
      readonly url: string;
      readonly ref?: string | undefined;
      readonly path?: string | undefined;
    }
  | { readonly type: "archive"; readonly url: string; readonly path?: string | undefined };
