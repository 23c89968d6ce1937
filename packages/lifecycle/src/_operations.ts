// Every operation a plan can make, one entry each in `OPERATIONS` (a new one is a new entry,
// checked by the compiler there), and the steps of those that change a copy already installed:
// enable, disable, remove, rollback.
import { join } from "node:path";
import {
  type Environment,
  identityKey,
  type PackageKind,
  type PackageScope,
  scopeLibraryDir,
} from "@skillshelf/core";
import {
  type CopyChange,
  copiesOf,
  copyOf,
  effectiveOf,
  type InstallRecord,
  isRequirementMet,
  newlyBrokenDependents,
  type PackageCopy,
  type PackageSnapshot,
  previousCopyDir,
  readPackageManifest,
  readScopeState,
  snapshotAfter,
} from "@skillshelf/store";
import { type CopyWrite, type WriteBatch, writeCopyBatch } from "@skillshelf/store/writers";
import type { Planning } from "./_planning.js";
import { refusal } from "./_refusal.js";
import { lockedEntry, reviewFacts } from "./_review.js";
import { trustEndsWith, withTrustEnding } from "./_trust-ending.js";
import { type CapabilityDiff, capabilityDiff } from "./capabilities.js";
import type { Operation, PlanStep, Refusal, StepLink, StepSource } from "./types.js";

/** The operations that stage a source and install what it holds. */
export type StagedOperation = "install" | "update";

/** A change to a copy already installed: every operation but those that stage a source. */
export type CopyOperation = Exclude<Operation, StagedOperation>;

/** Whether `operation` changes a copy already installed (it names copies, never sources). */
export function isCopyOperation(operation: string): operation is CopyOperation {
  return Object.hasOwn(OPERATIONS, operation) && OPERATIONS[operation as Operation].form === "copy";
}

/** What a committed step of `operation` leaves of its copy, as `verifySteps` checks it. */
export function leftBy(operation: Operation): OperationFacts["leaves"] {
  return OPERATIONS[operation].leaves;
}

/** Whether a step of `operation` keeps the tree it replaces, for `rollback`. */
export function keepsPrevious(operation: Operation): boolean {
  const spec = OPERATIONS[operation];
  return spec.form === "staged" && spec.replaces;
}

/**
 * Whether several copies named at once by `operation` are judged together (`judgedTogether`):
 * a change of a copy's state that can break what needs it (disable, remove).
 */
export function judgedAtOnce(operation: CopyOperation): operation is CopyChange["change"] {
  return OPERATIONS[operation].together;
}

/** Everything an install or update is, as its steps are planned and written. */
export function stagedOperation(operation: StagedOperation): StagedOperationSpec {
  return OPERATIONS[operation];
}

/**
 * Several removals or disables of one plan judged at once (`judgedTogether`): the snapshot once
 * every step has made its change, the dependents that breaks, and those broken before.
 */
export interface JudgedTogether {
  readonly after: PackageSnapshot;
  readonly broken: ReturnType<typeof newlyBrokenDependents>;
  readonly preexisting: readonly string[];
}

/** Judge `changes` of one plan together, once for all of its steps. */
export function judgedTogether(
  snapshot: PackageSnapshot,
  changes: readonly CopyChange[],
): JudgedTogether {
  const after = snapshotAfter(snapshot, changes);
  return {
    after,
    broken: newlyBrokenDependents(snapshot, after),
    preexisting: preexistingBroken(snapshot),
  };
}

/**
 * A step that changes only state or trees already on disk, as `OPERATIONS[operation]`
 * judges it. `together`: several ids removed or disabled at once (`judgedTogether`), so a
 * dependent removed in the same plan breaks nothing, and a step is refused only for the
 * dependents that need its own package.
 */
export function copyStep(
  planning: Planning,
  operation: CopyOperation,
  copy: PackageCopy,
  together?: JudgedTogether,
): PlanStep {
  const { snapshot } = planning;
  const { scope, id } = copy;
  const kind: PackageKind = copy.manifest?.kind ?? copy.record?.kind ?? "plugin";
  const review = reviewFacts(planning.review, scope, id, snapshot);
  const before = lockedEntry(planning.review, scope, id);
  const beforeEntry = "entry" in before ? before.entry : null;
  const spec = OPERATIONS[operation];
  const judged = spec.judge({ planning, copy, kind, beforeEntry, together });
  const refused =
    ("refusal" in review ? review.refusal : undefined) ??
    ("refusal" in before ? before.refusal : undefined) ??
    judged.refusal;
  const links = spec.links === "keep" ? [] : linksOfCopy(planning, copy, spec.links);
  return {
    operation,
    ref: identityKey(kind, id),
    id,
    kind,
    scope,
    ...(copy.record?.version === undefined ? {} : { version: copy.record.version }),
    ...(judged.source === undefined ? {} : { source: judged.source }),
    ...(links.length === 0 ? {} : { links }),
    ...(judged.capabilities === undefined ? {} : { capabilities: judged.capabilities }),
    expected: "facts" in review ? review.facts : [],
    requires: copy.manifest?.requires ?? [],
    dependents: judged.dependents ?? { newlyBroken: [], preexisting: [] },
    effectiveAfter: effectiveOf(judged.after ?? snapshot, id),
    ...(judged.note === undefined ? {} : { note: judged.note }),
    recovery: spec.recovery,
    lock: { before: beforeEntry, after: judged.lockAfter },
    ...(refused === undefined ? {} : { refusal: refused }),
  };
}

// --- internal ---

/** What an operation is given to judge a copy's step by. */
interface CopyContext {
  readonly planning: Planning;
  readonly copy: PackageCopy;
  readonly kind: PackageKind;
  readonly beforeEntry: PlanStep["lock"]["before"];
  readonly together?: JudgedTogether | undefined;
}

/** What an operation makes of a copy: the lock entry after, and what else it found. */
interface CopyJudgment {
  readonly lockAfter: PlanStep["lock"]["after"];
  /** The snapshot once it is made (where the copy counts from); default: as it is. */
  readonly after?: PackageSnapshot | undefined;
  readonly dependents?: PlanStep["dependents"] | undefined;
  readonly refusal?: Refusal | undefined;
  readonly note?: string | undefined;
  readonly source?: StepSource | undefined;
  readonly capabilities?: CapabilityDiff | undefined;
}

/** Commit the copy steps `inputs` of one operation with its one store writer. */
export function writeCopies(
  operation: CopyOperation,
  inputs: Parameters<typeof writeCopyBatch>[1],
): WriteBatch {
  return writeCopyBatch(OPERATIONS[operation].writes, inputs);
}

/** What every operation is, whatever form its steps take. */
interface OperationFacts {
  /** What a committed step leaves of the copy, as `verifySteps` checks it. */
  readonly leaves: "present" | "absent" | "enabled" | "disabled";
}

/** Everything an operation that stages a source is. */
export interface StagedOperationSpec extends OperationFacts {
  readonly form: "staged";
  /** Over a copy already installed: the same package repairs it, and one holding it exactly is left (install). */
  readonly repairs: boolean;
  /** Shows what the new version changes (a capability diff) and keeps the replaced tree for `rollback` (update). */
  readonly replaces: boolean;
  /** What the step says it does if it fails half way: into an empty destination, over a copy. */
  readonly recovery: { readonly fresh: string; readonly over: string };
}

/** Everything one operation on an installed copy is. */
interface CopyOperationSpec extends OperationFacts {
  readonly form: "copy";
  /** What the step says it does if it fails half way. */
  readonly recovery: string;
  /** Several named at once are judged together: one needing another in the same plan breaks nothing. */
  readonly together: boolean;
  /** The store writer that commits a run of its steps at once. */
  readonly writes: CopyWrite;
  /** What becomes of the copy's links: made again, taken away, or left as they are. */
  readonly links: "relink" | "unlink" | "keep";
  judge(context: CopyContext): CopyJudgment;
}

const FLAG_ONLY = "only the enabled flag in state.json changes; no files move";

const REPLACED =
  "the replaced tree is kept as the previous version (rollback restores it); files changed locally are kept beside it as a backup";
const OVER_A_COPY =
  "files in the current tree that differ from its record are kept beside it as a backup";

/** Every operation, by name. */
const OPERATIONS: {
  readonly [O in Operation]: O extends StagedOperation ? StagedOperationSpec : CopyOperationSpec;
} = {
  install: {
    form: "staged",
    leaves: "present",
    repairs: true,
    replaces: false,
    recovery: { fresh: "nothing to recover; the destination is empty", over: OVER_A_COPY },
  },
  update: {
    form: "staged",
    leaves: "present",
    repairs: false,
    replaces: true,
    // an update always replaces a copy
    recovery: { fresh: REPLACED, over: REPLACED },
  },
  enable: {
    form: "copy",
    leaves: "enabled",
    together: false,
    recovery: FLAG_ONLY,
    writes: "enable",
    links: "relink",
    judge: (context) => {
      const changed = stateChange(context, { change: "enable", enabled: true });
      return { ...changed, refusal: enableRefusal(context) };
    },
  },
  disable: {
    form: "copy",
    leaves: "disabled",
    together: true,
    recovery: FLAG_ONLY,
    writes: "disable",
    links: "unlink",
    judge: (context) =>
      stateChange(context, {
        change: "disable",
        enabled: false,
        breaking: "disabling",
        note: (after) => shadowNote(context.copy, after),
      }),
  },
  remove: {
    form: "copy",
    leaves: "absent",
    together: true,
    recovery:
      "files that differ from the recorded content are kept beside the destination as a backup",
    writes: "remove",
    links: "unlink",
    judge: (context) =>
      stateChange(context, {
        change: "remove",
        enabled: undefined,
        breaking: "removing",
        note: (after) => revealedNote(context.planning.snapshot, after, context.copy),
      }),
  },
  rollback: {
    form: "copy",
    leaves: "present",
    together: false,
    recovery:
      "the current tree is deleted (kept as a backup if its files changed); nothing earlier is kept, so update goes forward again",
    writes: "rollback",
    links: "keep",
    judge: rollbackJudgment,
  },
};

/**
 * The judgment of a change to a copy's state: the snapshot after it, the lock entry it leaves
 * (none once removed), and, for a change that takes the copy away (`breaking`), the dependents it
 * would break, which refuse it.
 */
function stateChange(
  context: CopyContext,
  change: {
    readonly change: CopyChange["change"];
    /** The lock entry's enabled flag after; `undefined`: no entry (removed). */
    readonly enabled: boolean | undefined;
    readonly breaking?: string | undefined;
    readonly note?: ((after: PackageSnapshot) => string | undefined) | undefined;
  },
): CopyJudgment {
  const { planning, copy, kind, together } = context;
  const { snapshot } = planning;
  const { scope, id, record } = copy;
  const after = together?.after ?? snapshotAfter(snapshot, { scope, id, change: change.change });
  const lockAfter =
    change.enabled === undefined || record === undefined
      ? null
      : planning.review.lockEntryAfter(scope, id, record, change.enabled);
  const note = change.note?.(after);
  if (change.breaking === undefined)
    return { after, lockAfter, ...(note === undefined ? {} : { note }) };
  const broken = (together?.broken ?? newlyBrokenDependents(snapshot, after)).filter(
    (candidate) => together === undefined || candidate.missing.includes(identityKey(kind, id)),
  );
  const newlyBroken = broken.map((one) => ({
    ref: identityKey(refKind(after, one.id, one.scope), one.id),
    scope: one.scope,
    missing: one.missing,
  }));
  const dependents = {
    newlyBroken,
    preexisting: [...(together?.preexisting ?? preexistingBroken(snapshot))],
  };
  const refused =
    newlyBroken.length === 0
      ? undefined
      : refusal(
          "dependents",
          `${change.breaking} ${scope}:${id} would break ${newlyBroken.map((d) => `${d.scope}:${d.ref} (missing ${d.missing.join(", ")})`).join("; ")}`,
          { dependents: newlyBroken },
        );
  return {
    after,
    lockAfter,
    dependents,
    ...(refused === undefined ? {} : { refusal: refused }),
    ...(note === undefined ? {} : { note }),
  };
}

/** Why a copy cannot be enabled: it is not sound, or what it needs is not loadable. */
function enableRefusal({ planning, copy }: CopyContext): Refusal | undefined {
  const { scope, id } = copy;
  if (!copy.valid)
    return refusal("copy_invalid", `${scope}:${id} is ${copy.state} and cannot be enabled`, {
      state: copy.state,
    });
  const unmet = (copy.manifest?.requires ?? []).filter(
    (ref) => !isRequirementMet(planning.snapshot, ref),
  );
  return unmet.length === 0
    ? undefined
    : refusal(
        "requirement_inactive",
        `${scope}:${id} needs ${unmet.join(", ")}, which ${unmet.length === 1 ? "is" : "are"} not loadable`,
        { missing: unmet },
      );
}

/** A rollback: the kept tree comes back, its record and lock entry with it. */
function rollbackJudgment({ planning, copy, beforeEntry }: CopyContext): CopyJudgment {
  const { environment } = planning;
  const { scope, id } = copy;
  const previous: InstallRecord["previous"] = copy.record?.previous;
  if (previous === undefined)
    return {
      lockAfter: beforeEntry,
      refusal: refusal("no_previous_version", `${scope}:${id} has no previous version to restore`),
    };
  const diff = rollbackDiff(environment, copy);
  return {
    lockAfter: planning.review.lockEntryAfter(scope, id, previous, copy.enabled),
    source: {
      source: previous.origin.source,
      dir: copy.dir,
      digest: previous.contentDigest,
      origin: previous.origin,
    },
    ...(diff === undefined
      ? {}
      : {
          capabilities: withTrustEnding(
            diff,
            trustEndsWith(
              { environment, scope, cache: planning.request.cache },
              id,
              previous.contentDigest,
            ),
          ),
        }),
  };
}
/** What a rollback changes in what a model is given: the installed tree against the kept one. */
function rollbackDiff(environment: Environment, copy: PackageCopy): CapabilityDiff | undefined {
  const kept = previousCopyDir({ environment, scope: copy.scope }, copy.id);
  const manifest = readPackageManifest(kept);
  if (copy.manifest === undefined || !manifest.ok) return undefined;
  return capabilityDiff(
    environment,
    { id: copy.id, dir: copy.dir, manifest: copy.manifest },
    { id: copy.id, dir: kept, manifest: manifest.value },
  );
}

/** The links of a copy a remove or disable takes away, and an enable makes again. */
function linksOfCopy(
  planning: Planning,
  copy: PackageCopy,
  change: "relink" | "unlink",
): StepLink[] {
  const read = readScopeState(planning.environment, copy.scope, planning.request.cache);
  const links = read.ok ? (read.value.state.links ?? {}) : {};
  const library = scopeLibraryDir(planning.environment, copy.scope);
  return Object.entries(links)
    .filter(([, record]) => record.package === copy.id)
    .map(([key, record]) => ({
      ...(change === "relink" ? {} : { operation: "unlink" as const }),
      agent: record.agent,
      key,
      target: join(library, record.target),
      copy: record.mode === "copy",
      inPlace: false,
    }));
}

/** What a disable leaves: a disabled project copy still hides the user's. */
function shadowNote(copy: PackageCopy, after: PackageSnapshot): string | undefined {
  const other = copiesOf(after, copy.id).find((candidate) => candidate.scope !== copy.scope);
  return copy.scope === "project" && other?.valid === true
    ? "the disabled project copy still shadows the user copy; removal would reveal it"
    : undefined;
}

/** What a remove leaves: the other scope's copy counting now, or no copy at all. */
function revealedNote(
  before: PackageSnapshot,
  after: PackageSnapshot,
  copy: PackageCopy,
): string | undefined {
  const other = copiesOf(after, copy.id).find((candidate) => candidate.scope !== copy.scope);
  if (other === undefined) return "no other copy exists; the package will be absent";
  const wasLoadable = copiesOf(before, copy.id).some(
    (candidate) => candidate.scope !== copy.scope && candidate.loadable,
  );
  return other.loadable && !wasLoadable
    ? `the ${other.scope} copy becomes effective (loadable)`
    : undefined;
}

function preexistingBroken(snapshot: PackageSnapshot): string[] {
  return snapshot.copies
    .filter(
      (copy) =>
        copy.loadable &&
        (copy.manifest?.requires ?? []).some((ref) => !isRequirementMet(snapshot, ref)),
    )
    .map((copy) => `${copy.scope}:${copy.manifest?.kind ?? "plugin"}:${copy.id}`);
}

function refKind(snapshot: PackageSnapshot, id: string, scope: PackageScope): string {
  const copy = copyOf(snapshot, scope, id);
  return copy?.manifest?.kind ?? copy?.record?.kind ?? "plugin";
}
