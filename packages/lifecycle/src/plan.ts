import { createCodeParsers } from "@skillshelf/audit";
import {
  createDiagnostic,
  type Diagnostic,
  type Environment,
  identityKey,
  identityName,
  type PackageScope,
  type PackageSource,
} from "@skillshelf/core";
import { readAdvisories, readPolicy } from "@skillshelf/policy";
import { createSkillCache } from "@skillshelf/skills-loader";
import {
  describeSource,
  discoverLibrary,
  type IndexRow,
  isPinnedTo,
  resolveRequirements,
  type StagedSource,
  sourceAtRef,
} from "@skillshelf/sources";
import {
  copyOf,
  copyScope,
  createStoreReview,
  defaultScope,
  isRequirementMet,
  type PackageCopy,
  type PackageManifest,
  readPackageSnapshot,
} from "@skillshelf/store";
import { existingAgentFolders } from "./_link-agents.js";
import { copyStep, judgedAtOnce, judgedTogether } from "./_operations.js";
import { finishPlan, type Planning, type Unread } from "./_planning.js";
import { refusal } from "./_refusal.js";
import { type Staged, stage, stagePackages } from "./_stage.js";
import { stageEach } from "./_stage-each.js";
import { createStagingSet } from "./_staging.js";
import { installStep, originOf, pushStep, refusedStep } from "./_steps.js";
import { type InstallTarget, resolveInstallTarget } from "./_targets.js";
import type { LifecyclePlan, LifecycleRequest, Operation, PlanStep, Refusal } from "./types.js";

/**
 * Plan a change: resolve what it is about, stage every source it
 * needs (dependencies as their own install steps before their dependents), review each copy's
 * facts and refuse what would break or surprise — all without writing anything. The plan is data
 * (canonical JSON) that owns its staged sources; apply it with `applyLifecycle` or let them go
 * with `releasePlan`.
 */
export async function planLifecycle(request: LifecycleRequest): Promise<LifecyclePlan> {
  const { environment } = request;
  const unread: Unread = {
    environment,
    request,
    discovery: request.discovery ?? discoverLibrary(environment),
    policy: readPolicy(environment),
    advisories: readAdvisories(environment).feeds,
    staging: createStagingSet(),
    audits: new WeakMap(),
    skillFiles: createSkillCache(),
    codeParsers: request.codeParsers ?? createCodeParsers(),
    review: createStoreReview(environment, request.cache),
    diagnostics: [],
  };
  try {
    // a policy that does not read refuses every change before anything is fetched
    const invalid = unread.policy.invalid;
    // an install reads only the copies it concerns, once its targets are staged
    const steps =
      invalid !== undefined
        ? request.targets.map((target) =>
            refusedStep(
              target,
              request.scope ?? defaultScope(environment),
              request.operation,
              invalid,
            ),
          )
        : request.operation === "install"
          ? await installSteps(unread)
          : await copySteps(
              { ...unread, snapshot: readPackageSnapshot(environment, { cache: request.cache }) },
              request.operation,
            );
    if (request.operation === "install" && request.links === undefined)
      unread.diagnostics.push(...notLinked(environment, steps));
    return finishPlan(unread, request.operation, steps);
  } catch (error) {
    unread.staging.release();
    throw error;
  }
}

/** Delete every source a plan staged. Safe to call more than once; `applyLifecycle` always does. */
export function releasePlan(plan: LifecyclePlan): void {
  plan.staging.release();
}

// --- internal ---

async function copySteps(
  planning: Planning,
  operation: Exclude<Operation, "install">,
): Promise<PlanStep[]> {
  if (operation === "update") return updateSteps(planning);
  const found = planning.request.targets.map((target) => {
    const id = identityName(target);
    const scope = copyScope(planning.snapshot, id, planning.request.scope);
    return {
      target,
      id,
      scope,
      copy: scope === undefined ? undefined : copyOf(planning.snapshot, scope, id),
    };
  });
  const copies = found.flatMap((one) => (one.copy === undefined ? [] : [one.copy]));
  // several removed or disabled at once are judged together: one needing another breaks nothing
  const together =
    judgedAtOnce(operation) && copies.length > 1
      ? judgedTogether(
          planning.snapshot,
          copies.map((copy) => ({ scope: copy.scope, id: copy.id, change: operation })),
        )
      : undefined;
  // a package goes after those needing it, so each holds wherever the steps are committed one
  // at a time (disables, and removals across scopes)
  const ordered = together === undefined ? found : neededLast(found);
  return ordered.map(({ target, id, scope, copy }) =>
    copy === undefined || scope === undefined
      ? refusedStep(
          target,
          scope ?? defaultScope(planning.environment),
          operation,
          refusal(
            "not_installed",
            `${id} is not installed${scope === undefined ? "" : ` in the ${scope} scope`}`,
          ),
        )
      : copyStep(planning, operation, copy, together),
  );
}

async function installSteps(unread: Unread): Promise<PlanStep[]> {
  const { environment, discovery } = unread;
  const scope = unread.request.scope ?? defaultScope(environment);
  const targets: InstallTarget[] = unread.request.targets.map((text) =>
    resolveInstallTarget(text, discovery.rows, environment),
  );
  const refusedTargets = targets.filter((target) => target.kind === "refused");
  if (refusedTargets.length > 0)
    return refusedTargets.map((target) =>
      refusedStep(target.text, scope, "install", target.refusal),
    );
  // stage every target to learn its manifest; index rows name their requirements up front
  const staged: { target: InstallTarget; result: Staged }[] = [];
  for (const target of targets) {
    const source =
      target.kind === "row"
        ? target.row.source
        : target.kind === "source"
          ? target.source
          : undefined;
    if (source === undefined) continue;
    const [pick, plugins] =
      target.kind === "source" ? [unread.request.skills, unread.request.plugins] : [];
    for (const result of await stagePackages(unread, source, pick, plugins))
      staged.push({ target, result });
  }
  const requested = new Set<string>();
  const requires = new Set<string>();
  for (const { result } of staged) {
    if ("refusal" in result) continue;
    requested.add(identityKey(result.manifest.kind, result.manifest.id));
    for (const ref of result.manifest.requires) requires.add(ref);
  }
  const snapshot = readPackageSnapshot(environment, {
    ids: concernedIds(discovery.rows, [...requested, ...requires]),
    cache: unread.request.cache,
  });
  const planning: Planning = { ...unread, snapshot };
  const resolution = resolveRequirements({
    rows: discovery.rows,
    refs: [...requires].filter((ref) => !requested.has(ref)),
    installed: (ref) =>
      isRequirementMet(snapshot, ref)
        ? "loadable"
        : snapshot.copies.some(
              (copy) => `${copy.manifest?.kind ?? copy.record?.kind}:${copy.id}` === ref,
            )
          ? "not_loadable"
          : undefined,
  });
  const blocking = requirementRefusal(resolution, planning.request.withRequirements === true);
  const steps: PlanStep[] = [];
  if (blocking === undefined)
    for (const row of resolution.order) {
      if (requested.has(identityKey(row.kind, row.name))) continue;
      const result = await stage(planning, row.source);
      if ("refusal" in result)
        steps.push(refusedStep(identityKey(row.kind, row.name), scope, "install", result.refusal));
      else pushStep(steps, installStep(planning, rowInstall(row, scope, result)));
    }
  for (const { target, result } of staged) {
    if ("refusal" in result) {
      steps.push(refusedStep(result.ref ?? target.text, scope, "install", result.refusal));
      continue;
    }
    const row = target.kind === "row" ? target.row : undefined;
    const mismatch =
      row !== undefined && (row.name !== result.manifest.id || row.kind !== result.manifest.kind)
        ? refusal(
            "identity_mismatch",
            `the index offers ${row.kind}:${row.name}, but the source holds ${result.manifest.kind}:${result.manifest.id}`,
          )
        : undefined;
    const step = installStep(planning, {
      ...(row === undefined
        ? {
            operation: "install" as const,
            scope,
            staged: result.staged,
            manifest: result.manifest,
            origin: originOf(result.staged, undefined),
          }
        : rowInstall(row, scope, result)),
      refusal: mismatch ?? blocking,
    });
    // what stops one skill of a collection (its content, a copy it would replace) stops it alone
    const own = step?.refusal !== undefined && step.refusal !== blocking && result.member === true;
    pushStep(steps, own ? { ...step, refusal: { ...step.refusal, alone: true } } : step);
  }
  return steps;
}

/**
 * `found` ordered so that each copy comes after every copy of the list that needs it (a copy
 * needed by none first), otherwise as given; a cycle keeps the order given.
 */
function neededLast<T extends { readonly copy: PackageCopy | undefined }>(
  found: readonly T[],
): T[] {
  const refOf = (copy: PackageCopy) => `${copy.manifest?.kind ?? copy.record?.kind}:${copy.id}`;
  const requires = (one: T) => one.copy?.manifest?.requires ?? [];
  // how many copies left still need each ref: kept as copies leave, not counted again each time
  const needed = new Map<string, number>();
  for (const one of found)
    for (const ref of requires(one)) needed.set(ref, (needed.get(ref) ?? 0) + 1);
  const ordered: T[] = [];
  const left = [...found];
  while (left.length > 0) {
    const next = left.findIndex(
      (one) => one.copy === undefined || (needed.get(refOf(one.copy)) ?? 0) === 0,
    );
    const [taken] = left.splice(next === -1 ? 0 : next, 1) as [T];
    ordered.push(taken);
    for (const ref of requires(taken)) needed.set(ref, (needed.get(ref) ?? 0) - 1);
  }
  return ordered;
}

/** The package ids `refs` name, with every requirement the index rows name for them, transitively. */
function concernedIds(rows: readonly IndexRow[], refs: readonly string[]): string[] {
  const seen = new Set<string>();
  const pending = [...refs];
  for (let ref = pending.pop(); ref !== undefined; ref = pending.pop()) {
    if (seen.has(ref)) continue;
    seen.add(ref);
    for (const row of rows)
      if (identityKey(row.kind, row.name) === ref) pending.push(...row.requires);
  }
  return [...seen].map(identityName);
}

/**
 * The steps of an update: each target's source, as its index offers it now or as it was
 * recorded, staged (what several share fetched once), and an install step wherever the staged
 * files differ from the installed ones.
 */
async function updateSteps(planning: Planning): Promise<PlanStep[]> {
  const found = planning.request.targets.map((target) => updateSource(planning, target));
  const sources = found.flatMap((one) => ("source" in one ? [one.source] : []));
  const staged = await stageEach(planning, sources);
  const steps: PlanStep[] = [];
  let next = 0;
  for (const one of found) {
    if ("refused" in one) steps.push(one.refused);
    else updateStep(planning, one, staged[next++] as Staged, steps);
  }
  return steps;
}

/** What one target of an update is: the copy, its index row, and the source to stage. */
interface UpdateTarget {
  readonly id: string;
  readonly scope: PackageScope;
  readonly copy: PackageCopy;
  readonly record: NonNullable<PackageCopy["record"]>;
  readonly row: IndexRow | undefined;
  readonly source: PackageSource;
}

function updateSource(
  planning: Planning,
  target: string,
): UpdateTarget | { readonly refused: PlanStep } {
  const { snapshot, discovery, request } = planning;
  const id = identityName(target);
  const scope = copyScope(snapshot, id, request.scope);
  const copy = scope === undefined ? undefined : copyOf(snapshot, scope, id);
  const record = copy?.record;
  if (copy === undefined || record === undefined || scope === undefined)
    return {
      refused: refusedStep(
        target,
        scope ?? defaultScope(planning.environment),
        "update",
        refusal("not_installed", `${id} is not installed`),
      ),
    };
  const kind = record.kind;
  const row =
    record.origin.index === undefined
      ? undefined
      : discovery.rows.find((candidate) => candidate.kind === kind && candidate.name === id);
  if (record.origin.index !== undefined && row === undefined)
    return {
      refused: refusedStep(
        identityKey(kind, id),
        scope,
        "update",
        refusal("source_unavailable", `no index offers ${kind}:${id} any more`, {
          index: record.origin.index,
        }),
      ),
    };
  const source = row?.source ?? record.origin.source;
  return {
    id,
    scope,
    copy,
    record,
    row,
    source: request.ref === undefined ? source : sourceAtRef(source, request.ref),
  };
}

/** The step `result` (`target`'s source staged) makes, or the note that nothing changed. */
function updateStep(
  planning: Planning,
  target: UpdateTarget,
  result: Staged,
  steps: PlanStep[],
): void {
  const { id, scope, copy, record, row, source } = target;
  if ("refusal" in result) {
    steps.push(refusedStep(identityKey(record.kind, id), scope, "update", result.refusal));
    return;
  }
  const { commit } = result.staged;
  // the same files at another commit are pinned anew (the record alone changes), so that
  // `update --check` agrees with what was fetched
  const moved = commit !== undefined && commit !== record.origin.commit;
  if (result.staged.digest === record.contentDigest && copy.state !== "damaged" && !moved) {
    planning.diagnostics.push(
      createDiagnostic(
        "info",
        "up_to_date",
        `${scope}:${id} is up to date: ${unchangedBecause(source, record.origin.commit, commit)}`,
        {
          path: copy.dir,
          details: {
            id,
            scope,
            digest: record.contentDigest,
            ...(commit === undefined ? {} : { commit }),
          },
        },
      ),
    );
    return;
  }
  const localChanges =
    copy.state === "damaged" && planning.request.force !== true
      ? refusal("local_changes", `${scope}:${id} has files that differ from what was installed`)
      : undefined;
  pushStep(
    steps,
    installStep(planning, {
      operation: "update",
      scope,
      staged: result.staged,
      manifest: result.manifest,
      origin: originOf(result.staged, row),
      ...(row === undefined ? {} : { pinned: { version: row.version, digest: row.sha256 } }),
      refusal: localChanges,
    }),
  );
}

/** Why an update found nothing to change, in words: the same commit, or files that did not change. */
function unchangedBecause(
  source: PackageSource,
  installed: string | undefined,
  fetched: string | undefined,
): string {
  if (fetched === undefined) return "the source holds the installed files";
  if (isPinnedTo(source, fetched))
    return `it is pinned to commit ${fetched}, and a commit does not move`;
  if (fetched === installed)
    return `${describeSource(source)} still names the installed commit ${fetched}`;
  return `${describeSource(source)} moved to ${fetched}, but this package's files did not change`;
}

function rowInstall(
  row: IndexRow,
  scope: PackageScope,
  result: { staged: StagedSource; manifest: PackageManifest },
) {
  return {
    operation: "install" as const,
    scope,
    staged: result.staged,
    manifest: result.manifest,
    origin: originOf(result.staged, row),
    pinned: { version: row.version, digest: row.sha256 },
  };
}

function requirementRefusal(
  resolution: ReturnType<typeof resolveRequirements>,
  withRequirements: boolean,
): Refusal | undefined {
  const [cycle] = resolution.cycles;
  if (cycle !== undefined)
    return refusal("requirement_cycle", `requirements form a cycle: ${cycle.join(" -> ")}`, {
      cycle,
    });
  if (resolution.missing.length > 0)
    return refusal(
      "requirement_missing",
      `no index offers ${resolution.missing.map((entry) => entry.ref).join(", ")}`,
      { missing: resolution.missing },
    );
  if (resolution.notLoadable.length > 0)
    return refusal(
      "requirement_inactive",
      `${resolution.notLoadable.map((entry) => entry.ref).join(", ")} ${resolution.notLoadable.length === 1 ? "is" : "are"} installed but not loadable`,
      { inactive: resolution.notLoadable },
    );
  const needed = resolution.order.map((row) => identityKey(row.kind, row.name));
  if (!withRequirements && needed.length > 0)
    return {
      ...refusal(
        "requirement_missing",
        `needs ${needed.join(", ")}, which ${needed.length === 1 ? "is" : "are"} not installed`,
        {
          missing: needed,
        },
      ),
    };
  return undefined;
}

/**
 * The finding that says no agent will read the skills an install without `--agent` puts in the
 * library, naming the agents with a skill folder in that scope to link them into: linking is
 * always asked for (DESIGN §2: nothing is written into an agent's folder but by `link`).
 */
function notLinked(environment: Environment, steps: readonly PlanStep[]): Diagnostic[] {
  const skills = steps.filter((step) => step.refusal === undefined && step.operation === "install");
  const [first] = skills;
  if (first === undefined) return [];
  const agents = existingAgentFolders(environment, first.scope, "skill", []);
  const names = skills.map((step) => step.id);
  return [
    createDiagnostic(
      "warning",
      "install_not_linked",
      `no agent reads what this installs into the ${first.scope} library until it is linked${agents.length === 0 ? "" : ` (agents with a skill folder here: ${agents.join(", ")})`}`,
      {
        details: {
          names: names.length > 3 ? `${names.slice(0, 3).join(" ")} …` : names.join(" "),
          agents: agents.length === 0 ? "<agent>" : agents.join(","),
        },
      },
    ),
  ];
}
