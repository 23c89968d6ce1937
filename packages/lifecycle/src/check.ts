import {
  type Environment,
  errorDiagnostic,
  type HintedDiagnostic,
  isSkillshelfError,
} from "@skillshelf/core";
import {
  askNewest,
  describeSource,
  discoverLibrary,
  isPinnedTo,
  type LibraryDiscovery,
  type StageOptions,
} from "@skillshelf/sources";
import {
  type InstallRecord,
  type PackageScope,
  readPackageSnapshot,
  type ScopeCache,
} from "@skillshelf/store";
import { stage } from "./_stage.js";
import { createStagingSet } from "./_staging.js";

/** What `update --check` found for one installed package. */
export interface UpdateCheck {
  readonly id: string;
  readonly kind: string;
  readonly scope: PackageScope;
  /** Where it is installed from, as a user names it. */
  readonly source: string;
  /** What is installed: its commit (a git source), version and tree digest. */
  readonly pinned: {
    readonly commit?: string;
    readonly version?: string | undefined;
    readonly digest: string;
  };
  /** What the source would install now, as far as asking it tells. */
  readonly newest?: {
    readonly commit?: string;
    readonly version?: string | undefined;
    readonly digest?: string;
  };
  /** `unknown` when the source could not be asked (`error` says why). */
  readonly status: "up-to-date" | "out-of-date" | "unknown";
  /** Why, in words: "the same commit", "a commit does not move", "main moved", "the index offers 1.2.0". */
  readonly reason: string;
  readonly error?: HintedDiagnostic | undefined;
}

/** What to check. */
export interface UpdateCheckRequest {
  readonly environment: Environment;
  /** The scope whose copies are checked; default: both. */
  readonly scope?: PackageScope | undefined;
  /** Package ids; default: every installed copy. */
  readonly ids?: readonly string[] | undefined;
  readonly discovery?: LibraryDiscovery | undefined;
  readonly stage?: StageOptions | undefined;
  readonly cache?: ScopeCache | undefined;
}

/**
 * Ask every recorded source what it would install now, writing nothing (`update
 * --check`): a git source with `git ls-remote` (nothing is fetched; a commit hash does not move),
 * an index row by its version and pinned digest, any other source by fetching it and comparing
 * digests. `up-to-date` is said only after comparing.
 */
export async function checkUpdates(request: UpdateCheckRequest): Promise<UpdateCheck[]> {
  const { environment } = request;
  const snapshot = readPackageSnapshot(environment, { cache: request.cache });
  const discovery = request.discovery ?? discoverLibrary(environment);
  const copies = snapshot.copies.filter(
    (copy) =>
      copy.record !== undefined &&
      (request.scope === undefined || copy.scope === request.scope) &&
      (request.ids === undefined || request.ids.includes(copy.id)),
  );
  const checks: UpdateCheck[] = [];
  for (const copy of copies) {
    const record = copy.record as InstallRecord;
    const base = {
      id: copy.id,
      kind: record.kind,
      scope: copy.scope,
      source: describeSource(record.origin.source),
      pinned: {
        ...(record.origin.commit === undefined ? {} : { commit: record.origin.commit }),
        version: record.version,
        digest: record.contentDigest,
      },
    };
    try {
      checks.push({ ...base, ...(await checkOne(request, discovery, copy.id, record)) });
    } catch (error) {
      if (!isSkillshelfError(error)) throw error;
      checks.push({
        ...base,
        status: "unknown",
        reason: "the source could not be asked",
        error: errorDiagnostic(error),
      });
    }
  }
  return checks;
}

// --- internal ---

type Verdict = Pick<UpdateCheck, "newest" | "status" | "reason" | "error">;

async function checkOne(
  request: UpdateCheckRequest,
  discovery: LibraryDiscovery,
  id: string,
  record: InstallRecord,
): Promise<Verdict> {
  const { source, index } = record.origin;
  if (index !== undefined) {
    const row = discovery.rows.find((one) => one.kind === record.kind && one.name === id);
    if (row === undefined)
      return { status: "unknown", reason: `no index offers ${record.kind}:${id} any more` };
    if (row.sha256 !== undefined || row.version !== undefined) {
      const newest = {
        ...(row.version === undefined ? {} : { version: row.version }),
        ...(row.sha256 === undefined ? {} : { digest: row.sha256 }),
      };
      const same =
        row.sha256 !== undefined
          ? row.sha256 === record.contentDigest
          : row.version === record.version;
      return same
        ? { newest, status: "up-to-date", reason: "the index offers what is installed" }
        : {
            newest,
            status: "out-of-date",
            reason: `the index offers ${row.version ?? row.sha256}`,
          };
    }
  }
  // a source that can say what it would give without a fetch (git: ls-remote) is asked so
  const asked = await askNewest(source, request.stage);
  if (asked !== undefined) {
    const { commit } = asked;
    if (commit === undefined)
      return { status: "unknown", reason: "the ref it was installed from is gone" };
    const newest = { commit };
    if (commit === record.origin.commit)
      return {
        newest,
        status: "up-to-date",
        reason: isPinnedTo(source, commit)
          ? "it is pinned to a commit, and a commit does not move"
          : "its ref still names the installed commit",
      };
    return { newest, status: "out-of-date", reason: "its ref moved to another commit" };
  }
  // a folder or an archive tells what it holds only when it is read
  const staging = createStagingSet();
  try {
    const staged = await stage(
      {
        environment: request.environment,
        request: { targets: [], stage: request.stage },
        discovery,
        staging,
        diagnostics: [],
      },
      source,
    );
    if ("refusal" in staged) {
      return { status: "unknown", reason: "the source could not be read", error: staged.refusal };
    }
    const newest = { digest: staged.staged.digest, version: staged.manifest.version };
    return staged.staged.digest === record.contentDigest
      ? { newest, status: "up-to-date", reason: "the source holds the installed files" }
      : { newest, status: "out-of-date", reason: "the source holds other files" };
  } finally {
    staging.release();
  }
}
