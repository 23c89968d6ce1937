import type { Diagnostic, SourceOf, SourceType } from "@skillshelf/core";
import type { SourceLimits } from "../_archive.js";
import type { HostHeaders } from "../credentials.js";
import { createHttpClient, type HttpClient } from "../http/client.js";
import { type Mirrors, mirroredClient } from "../mirrors.js";
import type { NpmConfig } from "../npm-config.js";
import type { OciCredentials } from "../oci-credentials.js";
import type { ParsedSource } from "./_syntax.js";

/** How `stageSource` fetches. */
export interface StageOptions {
  /** Where staging folders are made. Default: the OS temporary folder. */
  readonly tempDir?: string | undefined;
  /** Environment variables for `git` (PATH, HOME, proxies). Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Longest a git fetch or a download may take. Default 120 s. */
  readonly timeoutMs?: number | undefined;
  /**
   * How much a source may bring in: the download (an archive, or what git fetches), what it
   * unpacks to (an archive's members, or the checked-out commit) and how many entries. Default
   * for archives 50 MiB, 200 MiB and 10,000; for git 500 MiB, 1 GiB and 100,000.
   */
  readonly limits?: Partial<SourceLimits> | undefined;
  readonly signal?: AbortSignal | undefined;
  /** The HTTP client every download goes through (`createHttpClient`). Default: one for `env`. */
  readonly http?: HttpClient | undefined;
  /** The headers a download carries for its host (`hostHeaders`: credentials the user configured). */
  readonly headers?: HostHeaders | undefined;
  /** The user's npm settings, for an npm source (`npmConfig`). */
  readonly npm?: NpmConfig | undefined;
  /** Registry credentials as OCI clients keep them, for an OCI source (`ociCredentials`). */
  readonly oci?: OciCredentials | undefined;
  /**
   * Whether the command line of an `mcp+stdio:` source may be started. Default: never, so a
   * command written in a lock or an index someone else wrote is not run unless the caller says so
   * (the CLI runs the ones typed on its command line and the ones in the user's own lock).
   */
  readonly runsCommand?: ((command: string) => boolean) | undefined;
  /**
   * URL prefixes fetched from an internal mirror instead (the policy's `mirrors`), and whether a
   * fetch none rewrites is refused (`mirror-only`): every request and git fetch goes through them.
   */
  readonly mirrors?: Mirrors | undefined;
}

/** The HTTP client of `options`, or one for its environment; through its mirrors when it has any. */
export function httpOf(options: StageOptions): HttpClient {
  const client = options.http ?? createHttpClient(options.env ?? process.env);
  return options.mirrors === undefined || options.mirrors.rules.length === 0
    ? client
    : mirroredClient(client, options.mirrors);
}

/** How long a fetch may take when `StageOptions.timeoutMs` does not say: two minutes. */
export const DEFAULT_FETCH_TIMEOUT_MS = 120_000;

/**
 * The signal that ends a fetch: its timeout, or the caller's signal, whichever comes first. The
 * timer is an ordinary one (unref'd, so it never keeps the process alive) holding the controller:
 * Node 20 may collect an `AbortSignal.timeout` joined by `AbortSignal.any` before it fires
 * (nodejs/node#57736), and a fetch from a server that never answers then hangs for good.
 */
export function fetchSignal(options: StageOptions): AbortSignal {
  const controller = new AbortController();
  const ms = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  setTimeout(
    () => controller.abort(new DOMException(`the fetch took longer than ${ms} ms`, "TimeoutError")),
    ms,
  ).unref();
  const outer = options.signal;
  if (outer?.aborted === true) controller.abort(outer.reason);
  else outer?.addEventListener("abort", () => controller.abort(outer.reason), { once: true });
  return controller.signal;
}

/**
 * Where an installed copy came from, as its source says (inventory's `origin`): the kind, and
 * the folder or URL, ref and commit that apply.
 */
export interface SourceOrigin {
  readonly kind: SourceType;
  readonly path?: string | undefined;
  readonly url?: string | undefined;
  readonly ref?: string | undefined;
  readonly commit?: string | undefined;
}

/** Where a fetch writes: `dir` (which must not exist yet) inside `container`, its private folder. */
export interface FetchInto {
  readonly dir: string;
  readonly container: string;
}

/**
 * Everything Skillshelf does with one kind of package source (as pnpm's `Fetchers` record): how
 * it is fetched, named, narrowed to a folder, moved to another ref, pinned to a recorded commit
 * and asked for what it would give now. A new kind of source is one fetcher and one key of
 * `SOURCE_FETCHERS`.
 */
export interface Fetcher<T extends SourceType> {
  /** What its source texts look like, for the message when a text is no kind's. */
  readonly syntax: string;
  /**
   * `text` (trimmed) read as this kind's source, a refusal when it is this kind's syntax but
   * wrong, or `undefined` when it is not this kind's: the fetchers are asked in their record's
   * order and the first to answer decides.
   */
  parse(text: string, baseDir: string): ParsedSource | undefined;
  /**
   * Fetch `source` into `into.dir`: its commit when it has one, its digest when it was computed
   * as the files were written, and who signed which folder when signatures came with it.
   */
  fetch(
    source: SourceOf<T>,
    into: FetchInto,
    options: StageOptions,
  ): Promise<{
    readonly commit?: string;
    readonly digest?: string;
    readonly signers?: Readonly<Record<string, string>>;
    /** The commit of each folder that has one of its own (an MCP server's skills), by folder. */
    readonly commits?: Readonly<Record<string, string>>;
    /**
     * What the fetch found to say, each with its own code: what the source offered and it left
     * out (an MCP server's dynamic skill), another tool's signature it does not verify.
     */
    readonly findings?: readonly Diagnostic[];
  }>;
  /** The source as a user types it: a folder's path, or a URL with `//subfolder` and `#ref`. */
  describe(source: SourceOf<T>): string;
  /** Where a copy installed from `source` (at `commit`, when it has commits) came from. */
  origin(source: SourceOf<T>, commit: string | undefined): SourceOrigin;
  /**
   * The folder on this machine `source` is, for a collection to be read where it is (only its
   * chosen skills copied); absent for a source that must be fetched first.
   */
  readInPlace?(source: SourceOf<T>): string;
  /** `source` narrowed to the folder `path` (`/`-separated) inside what it names. */
  within(source: SourceOf<T>, path: string): SourceOf<T>;
  /**
   * `within`'s inverse: the source whose one fetch brings in `source`'s folder and every other of
   * what it names, and that folder. Present where a fetch gets the whole anyway (a repository, an
   * archive, a package), so packages from several folders of one are fetched once; absent where a
   * narrowed source fetches only its own folder (an MCP server's skill, a site's skill).
   */
  outer?(source: SourceOf<T>): { readonly source: SourceOf<T>; readonly path: string };
  /**
   * A revision (`commit`) of this kind as a person reads it: `version 1.2.0` for npm, a short
   * commit hash by default.
   */
  revisionText?(revision: string): string;
  /** `source` at another ref (`update --ref`); absent for a source that has no refs. */
  atRef?(source: SourceOf<T>, ref: string): SourceOf<T>;
  /** `source` fetched at the commit a lock recorded (a restore); absent when it has no commits. */
  pinnedAt?(source: SourceOf<T>, commit: string): SourceOf<T>;
  /**
   * What the source would give now, asked without fetching it (`update --check`): the commit its
   * ref names, `undefined` when the ref is gone. Absent when only a fetch can tell.
   */
  newest?(source: SourceOf<T>, options: StageOptions): Promise<string | undefined>;
  /**
   * Where the source is, as a policy names places: `host/owner/repo` for what a URL names,
   * `npm:<name>`, `local:<path>`.
   */
  place(source: SourceOf<T>): string;
  /** Whether the source names fixed content by itself (a commit, an exact version, a digest). */
  pinned(source: SourceOf<T>): boolean;
  /**
   * The package URL's parts of a copy installed from `source` at `commit` (`pkg:npm`,
   * `pkg:github`, `pkg:oci`); absent, or `undefined`, for a `pkg:generic` one.
   */
  packageUrl?(source: SourceOf<T>, commit: string | undefined): PackageUrlParts | undefined;
  /** The repository the source is in, for a bill of materials' VCS reference. */
  repository?(source: SourceOf<T>): string;
  /** The command line the source starts to fetch (an MCP server over stdio), if any. */
  command?(source: SourceOf<T>): string | undefined;
  /** The folder on this machine the source reads from (a folder, a repository on disk), if any. */
  folderOnMachine?(source: SourceOf<T>): string | undefined;
  /**
   * The URL a fetch of `source` starts from, as mirror rules match it (a repository's URL, a
   * registry's, an endpoint's); absent, or `undefined`, for a source on this machine.
   */
  upstreamUrl?(source: SourceOf<T>, options: StageOptions): string | undefined;
}

/** A package URL's parts (purl-spec): the caller adds the version where the source gives none. */
export interface PackageUrlParts {
  readonly type: string;
  readonly namespace?: string | undefined;
  readonly name?: string | undefined;
  readonly version?: string | undefined;
  readonly qualifiers?: Readonly<Record<string, string>> | undefined;
  readonly subpath?: string | undefined;
}
