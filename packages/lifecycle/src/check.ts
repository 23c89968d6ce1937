import {
  canonicalJson,
  type Environment,
  errorDiagnostic,
  type HintedDiagnostic,
  isSkillshelfError,
  type PackageScope,
  type PackageSource,
} from "@skillshelf/core";
import { createSkillCache } from "@skillshelf/skills-loader";
import {
  askNewest,
  describeSource,
  discoverLibrary,
  isPinnedTo,
  type LibraryDiscovery,
  revisionText,
  type StageOptions,
  sourceOuter,
} from "@skillshelf/sources";
import { type InstallRecord, readPackageSnapshot, type ScopeCache } from "@skillshelf/store";
import type { Staged } from "./_stage.js";
import { stageEach } from "./_stage-each.js";
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
  // git says what a ref names once per repository, however many packages came from it
  const asked = new Map<string, ReturnType<typeof askNewest>>();
  const ask = (source: PackageSource) => {
    const key = canonicalJson(sourceOuter(source)?.source ?? source);
    const asking = asked.get(key) ?? askNewest(source, request.stage);
    asked.set(key, asking);
    return asking;
  };
  const verdicts: (Verdict | { readonly read: PackageSource })[] = [];
  for (const copy of copies) {
    const record = copy.record as InstallRecord;
    try {
      verdicts.push(await checkOne(discovery, copy.id, record, ask));
    } catch (error) {
      if (!isSkillshelfError(error)) throw error;
      verdicts.push({
        status: "unknown",
        reason: "the source could not be asked",
        error: errorDiagnostic(error),
      });
    }
  }
  // a folder or an archive tells what it holds only when it is read: each fetched once
  const read = await readSources(
    request,
    discovery,
    verdicts.flatMap((one) => ("read" in one ? [one.read] : [])),
  );
  let next = 0;
  return copies.map((copy, index) => {
    const record = copy.record as InstallRecord;
    const found = verdicts[index] as Verdict | { readonly read: PackageSource };
    return {
      id: copy.id,
      kind: record.kind,
      scope: copy.scope,
      source: describeSource(record.origin.source),
      pinned: {
        ...(record.origin.commit === undefined ? {} : { commit: record.origin.commit }),
        version: record.version,
        digest: record.contentDigest,
      },
      ...("read" in found ? compared(read[next++] as Staged, record) : found),
    };
  });
}

// --- internal ---

type Verdict = Pick<UpdateCheck, "newest" | "status" | "reason" | "error">;

/** What the index or the source's ref tells of `id`, or the source to read when neither can. */
async function checkOne(
  discovery: LibraryDiscovery,
  id: string,
  record: InstallRecord,
  ask: (source: PackageSource) => ReturnType<typeof askNewest>,
): Promise<Verdict | { readonly read: PackageSource }> {
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
  const asked = await ask(source);
  if (asked === undefined) return { read: source };
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
  const from = record.origin.commit;
  return {
    newest,
    status: "out-of-date",
    reason: `its ref moved ${from === undefined ? "" : `from ${revisionText(source, from)} `}to ${revisionText(source, commit)}`,
  };
}

/** `sources` staged, what several share fetched once, and let go again. */
async function readSources(
  request: UpdateCheckRequest,
  discovery: LibraryDiscovery,
  sources: readonly PackageSource[],
): Promise<Staged[]> {
  if (sources.length === 0) return [];
  const staging = createStagingSet();
  try {
    return await stageEach(
      {
        environment: request.environment,
        request: { targets: [], stage: request.stage },
        discovery,
        staging,
        audits: new WeakMap(),
        skillFiles: createSkillCache(),
        diagnostics: [],
      },
      sources,
    );
  } finally {
    staging.release();
  }
}

/** What reading the source told, against what is installed. */
function compared(staged: Staged, record: InstallRecord): Verdict {
  if ("refusal" in staged)
    return { status: "unknown", reason: "the source could not be read", error: staged.refusal };
  const newest = { digest: staged.staged.digest, version: staged.manifest.version };
  return staged.staged.digest === record.contentDigest
    ? { newest, status: "up-to-date", reason: "the source holds the installed files" }
    : { newest, status: "out-of-date", reason: "the source holds other files" };
}
