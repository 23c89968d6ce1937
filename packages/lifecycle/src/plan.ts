import { randomBytes } from "node:crypto";
import { lstatSync } from "node:fs";
import { join, relative, sep } from "node:path";
import {
  canonicalJson,
  closest,
  createDiagnostic,
  type Diagnostic,
  type Environment,
  isInside,
  normalizeRelativePath,
  type PackageKind,
  type PackageSource,
} from "@skillshelf/core";
import {
  COLLECTION_LAYOUTS,
  type Collection,
  type CollectionResource,
  type CollectionSkill,
  createStagingArea,
  digested,
  discoverLibrary,
  type FetchedSource,
  fetchSource,
  type IndexRow,
  type LibraryDiscovery,
  MARKETPLACE_FILES,
  readCollection,
  repositoryPlugins,
  resolveRequirements,
  type StagedSource,
  type StagingArea,
  stageCollectionResource,
  stageCollectionSkill,
} from "@skillshelf/sources";
import {
  copiesOf,
  copyOf,
  hasManifestEntry,
  type InstallRecord,
  isRequirementMet,
  linkLibrary,
  newlyBrokenDependents,
  type PackageCopy,
  type PackageManifest,
  type PackageOrigin,
  type PackageScope,
  type PackageSnapshot,
  previousCopyDir,
  readPackageManifest,
  readPackageSnapshot,
  readScopeState,
  type ScopeCache,
  skillPackageManifest,
  snapshotAfter,
} from "@skillshelf/store";
import { contentRefusal } from "./_content.js";
import { packageSkills, stepLinks } from "./_package-skills.js";
import { refusal, refusalOf } from "./_refusal.js";
import {
  copyScope,
  effectiveOf,
  entryFor,
  lockAhead,
  lockedEntry,
  reviewFacts,
} from "./_review.js";
import { createStagingSet, type StagingSet } from "./_staging.js";
import { type InstallTarget, resolveInstallTarget } from "./_targets.js";
import { type CapabilityDiff, capabilityDiff } from "./capabilities.js";
import type {
  LifecyclePlan,
  LifecycleRequest,
  Operation,
  PlanStep,
  Refusal,
  StepLink,
  StepSource,
} from "./types.js";

/**
 * Plan a change (DESIGN §5, resources-spec §5.1): resolve what it is about, stage every source it
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
    staging: createStagingSet(),
    diagnostics: [],
  };
  try {
    // an install reads only the copies it concerns, once its targets are staged
    const steps =
      request.operation === "install"
        ? await installSteps(unread)
        : await copySteps(
            { ...unread, snapshot: readPackageSnapshot(environment, { cache: request.cache }) },
            request.operation,
          );
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

// --- shared with restoreFromLock ---

/** What planning works with. */
export interface Planning {
  readonly environment: Environment;
  readonly request: Pick<
    LifecycleRequest,
    | "scope"
    | "force"
    | "withRequirements"
    | "frozen"
    | "allOrNothing"
    | "ref"
    | "stage"
    | "targets"
    | "cache"
    | "skills"
    | "plugins"
    | "progress"
    | "links"
    | "fetches"
  >;
  readonly snapshot: PackageSnapshot;
  readonly discovery: LibraryDiscovery;
  readonly staging: StagingSet;
  readonly diagnostics: Diagnostic[];
}

/** Planning before the snapshot is read. */
type Unread = Omit<Planning, "snapshot">;

/**
 * Seal a plan: refuse steps in a scope whose lock is ahead of its state (`lock_ahead`, unless
 * the plan is the one that catches up) or any change to a lock under `frozen`, drop reviewed facts
 * of copies an earlier step writes (a plan cannot stale itself), release the staging of a plan
 * that cannot be applied, and attach the staging as a property outside the data.
 */
export function finishPlan(
  planning: Unread,
  operation: Operation | "restore",
  built: readonly PlanStep[],
): LifecyclePlan {
  const { environment, request } = planning;
  const ahead = new Map<PackageScope, string[]>();
  // the copies the steps before this one write
  const written = new Set<string>();
  const steps = built.map((step) => {
    const expected = step.expected.filter((fact) => !written.has(`${fact.scope}:${fact.id}`));
    written.add(`${step.scope}:${step.id}`);
    let refused = step.refusal;
    if (refused === undefined && operation !== "restore") {
      const pending = ahead.get(step.scope) ?? lockAhead(environment, step.scope, request.cache);
      ahead.set(step.scope, pending);
      if (pending.length > 0)
        refused = refusal(
          "lock_ahead",
          `the ${step.scope} lock pins ${pending.join(", ")}, which ${pending.length === 1 ? "is" : "are"} not installed`,
          { ids: pending },
        );
    }
    if (
      refused === undefined &&
      request.frozen === true &&
      canonicalJson(step.lock.before) !== canonicalJson(step.lock.after)
    )
      refused = refusal("lock_frozen", `${step.ref} would change the ${step.scope} lock`);
    return { ...step, expected, ...(refused === undefined ? {} : { refusal: refused }) };
  });
  const stops = (step: PlanStep) =>
    step.refusal !== undefined && (step.refusal.alone !== true || request.allOrNothing === true);
  const applicable =
    !steps.some(stops) && (steps.length === 0 || steps.some((step) => step.refusal === undefined));
  // a plan that will not be applied, or has nothing to apply, holds nothing staged
  if (!applicable || steps.length === 0) planning.staging.release();
  const plan = {
    version: 1 as const,
    id: randomBytes(8).toString("hex"),
    createdAt: new Date().toISOString(),
    project: environment.project,
    environment: {
      cwd: environment.cwd,
      project: environment.project,
      home: environment.home,
      configDir: environment.configDir,
    },
    request: {
      operation,
      targets: [...request.targets],
      ...(request.scope === undefined ? {} : { scope: request.scope }),
      force: request.force === true,
      withRequirements: request.withRequirements === true,
      frozen: request.frozen === true,
      allOrNothing: request.allOrNothing === true,
      ...(request.ref === undefined ? {} : { ref: request.ref }),
      ...(request.skills === undefined ? {} : { skills: [...request.skills] }),
      ...(request.plugins === undefined ? {} : { plugins: [...request.plugins] }),
      ...(request.links === undefined ? {} : { links: request.links }),
    },
    steps,
    applicable,
    diagnostics: planning.diagnostics,
  };
  // the staging is the plan's, but not part of its data: JSON and canonical JSON leave it out
  return Object.defineProperty(plan, "staging", {
    value: planning.staging,
    enumerable: false,
  }) as typeof plan & { readonly staging: StagingSet };
}

/** Stage a source for a step; a failure is the step's refusal. */
export async function stage(planning: Unread, source: PackageSource): Promise<Staged> {
  // a recorded source names one package, or one skill's folder: never a choice to make
  return (await stagePackages(planning, source, undefined))[0] as Staged;
}

/**
 * A staged package and its manifest (`member`: one skill of a collection, refused alone), or why
 * there is none (`ref`: what the refused step is called, when not the target).
 */
type Staged =
  | { staged: StagedSource; manifest: PackageManifest; member?: true }
  | { refusal: Refusal; ref?: string };

/**
 * Stage a source and read the packages it holds: the one package of a folder with a manifest, or
 * the chosen skills of a collection (a folder with none, DESIGN §5.1), each staged as a `skill`
 * package of its own. `pick` names the skills (`*`: all); without it a collection of one skill
 * gives that one and one of several is refused with the skills listed.
 */
async function stagePackages(
  planning: Unread,
  source: PackageSource,
  pick: readonly string[] | undefined,
  plugins?: readonly string[] | undefined,
): Promise<Staged[]> {
  planning.request.progress?.({ phase: "stage", source: describeSource(source) });
  // a recorded package made of one template or recipe of a collection is found in it again
  if (source.resource !== undefined) {
    const { resource, ...collection } = source;
    return stagePackages(planning, collection, [resource]);
  }
  // a local folder's plugins are staged from their folders like any local package
  if (plugins !== undefined && plugins.length > 0 && source.type === "local")
    return stagePlugins(planning, { dir: source.path, source, release: () => undefined }, plugins);
  // a local folder with no manifest is a collection read where it is: only its chosen skills are copied
  if (source.type === "local" && isRealFolder(source.path) && !hasManifestEntry(source.path))
    return stageSkills(planning, { dir: source.path, source }, pick, { inPlace: false });
  const { fetches } = planning.request;
  let fetched: FetchedSource;
  try {
    fetched = planning.staging.add(
      fetches?.take(source) ?? (await fetchSource(source, planning.request.stage)),
    );
  } catch (error) {
    return [{ refusal: refusalOf(error) }];
  }
  if (plugins !== undefined && plugins.length > 0) return stagePlugins(planning, fetched, plugins);
  // a fetched collection's skills are digested one by one, each where it was fetched
  if (!hasManifestEntry(fetched.dir)) {
    const skills = stageSkills(planning, fetched, pick, { inPlace: true });
    // refused until skills are picked: the plan made with the pick takes this fetch
    const [only] = skills;
    if (
      only !== undefined &&
      "refusal" in only &&
      only.refusal.code === "collection_choice_required"
    )
      fetches?.keep(source, planning.staging.handOver(fetched));
    return skills;
  }
  let staged: StagedSource;
  try {
    staged = digested(fetched);
  } catch (error) {
    return [{ refusal: refusalOf(error) }];
  }
  const manifest = readPackageManifest(staged.dir, known(planning, staged));
  if (manifest.ok && pick !== undefined && pick.length > 0)
    return [{ refusal: pickFromPackage(planning, source, staged, manifest.value, pick) }];
  if (manifest.ok) return [{ staged, manifest: manifest.value }];
  return [
    {
      refusal: refusal(
        "manifest_invalid",
        `the package staged from ${describeSource(source)} has no valid manifest`,
        { diagnostics: manifest.diagnostics },
      ),
    },
  ];
}

/**
 * The plugins `names` of the repository in `fetched`, as its marketplace lists them, each a
 * package of its own: staged from its folder in the repository (where it was fetched), or from
 * the source listed. A repository with no marketplace (`marketplace_missing`) or a name it does
 * not list (`plugin_unknown`, with a did-you-mean) is refused.
 */
async function stagePlugins(
  planning: Unread,
  fetched: FetchedSource,
  names: readonly string[],
): Promise<Staged[]> {
  const from = describeSource(fetched.source);
  const listed = repositoryPlugins(fetched);
  if (listed === undefined)
    return [
      {
        refusal: refusal(
          "marketplace_missing",
          `${from} has no marketplace.json listing plugins (looked in ${MARKETPLACE_FILES.join(", ")})`,
          { looked: MARKETPLACE_FILES },
        ),
      },
    ];
  planning.diagnostics.push(...listed.diagnostics);
  const offered = listed.plugins.map((plugin) => plugin.name);
  const staged: Staged[] = [];
  for (const name of names) {
    const plugin = listed.plugins.find((candidate) => candidate.name === name);
    if (plugin === undefined) {
      staged.push({
        ref: `plugin:${name}`,
        refusal: refusal(
          "plugin_unknown",
          `${listed.marketplace} of ${from} lists no plugin named ${name}`,
          {
            plugins: offered,
            suggestion: closest(name, offered) ?? null,
          },
        ),
      });
      continue;
    }
    if (plugin.folder === undefined || fetched.source.type === "local") {
      staged.push(...(await stagePackages(planning, plugin.source, undefined)));
      continue;
    }
    try {
      // kept in the repository: staged where it was fetched, which the plan already holds
      const one = digested({
        dir: join(fetched.dir, ...plugin.folder.split("/")),
        source: plugin.source,
        ...(fetched.commit === undefined ? {} : { commit: fetched.commit }),
        release: () => undefined,
      });
      const manifest = readPackageManifest(one.dir, known(planning, one));
      staged.push(
        manifest.ok
          ? { staged: one, manifest: manifest.value }
          : {
              ref: `plugin:${name}`,
              refusal: refusal(
                "manifest_invalid",
                `the plugin ${name} of ${from} has no valid manifest`,
                {
                  diagnostics: manifest.diagnostics,
                },
              ),
            },
      );
    } catch (error) {
      staged.push({ ref: `plugin:${name}`, refusal: refusalOf(error) });
    }
  }
  return staged;
}

/** A manifest read here is the one the read-back finds in the installed copy of these bytes. */
function known(
  planning: Unread,
  one: StagedSource,
): { readonly digest: string; readonly cache: ScopeCache } | undefined {
  const { cache } = planning.request;
  return cache === undefined ? undefined : { digest: one.digest, cache };
}

function isRealFolder(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/**
 * The chosen skills of the collection in `collection.dir`, each staged as a `skill` package of
 * its own: copied out, or, with `inPlace` (the collection is the plan's own staging), where
 * they are when no other chosen skill lies inside.
 */
function stageSkills(
  planning: Unread,
  collection: Pick<FetchedSource, "dir" | "source" | "commit">,
  pick: readonly string[] | undefined,
  { inPlace }: { readonly inPlace: boolean },
): Staged[] {
  const { source } = collection;
  const read = readCollection(collection.dir);
  const chosen = chooseSkills(read, pick, describeSource(source));
  if ("refusal" in chosen) return [chosen];
  // what was left out of the collection, and why, is part of the plan a user reviews (a skill
  // that cannot be installed is a refused step of its own), named where the user can find it
  planning.diagnostics.push(
    ...read.diagnostics
      .filter((finding) => finding.details?.skill === undefined)
      .map((finding) => (inPlace ? withSourcePath(finding, collection) : finding)),
  );
  // the skills whose folders hold another chosen skill's: every folder above a chosen one
  const above = new Set(
    chosen.skills.flatMap((skill) =>
      skill.path === "."
        ? []
        : skill.path.split("/").map((_, index, parts) => parts.slice(0, index).join("/") || "."),
    ),
  );
  const outer = chosen.skills.filter((skill) => above.has(skill.path));
  const tempDir = planning.request.stage?.tempDir;
  // the copied skills share one staging area, made when the first is copied
  let area: StagingArea | undefined;
  const areaForCopies = (): StagingArea => {
    area ??= planning.staging.add(createStagingArea(tempDir));
    return area;
  };
  const stageSkill = (skill: CollectionSkill): StagedSource | { refusal: Refusal } => {
    try {
      const options =
        inPlace && !outer.includes(skill) ? { tempDir, inPlace: true } : { area: areaForCopies() };
      return planning.staging.add(stageCollectionSkill(collection, skill, options));
    } catch (error) {
      return { refusal: refusalOf(error) };
    }
  };
  // the skills holding others are copied first, while the folders inside them are as fetched
  const stagedSkills = new Map(outer.map((skill) => [skill, stageSkill(skill)]));
  // each member is refused alone: one that cannot be installed does not stop the others
  const alone = (ref: string, refused: Refusal): Staged => ({
    refusal: { ...refused, alone: true },
    ref,
  });
  const resources = chosen.resources.map((item): Staged => {
    const ref = `${item.kind}:${item.name}`;
    try {
      const one = planning.staging.add(
        stageCollectionResource(collection, item, { area: areaForCopies() }),
      );
      const manifest = readPackageManifest(one.dir, known(planning, one));
      return manifest.ok
        ? { staged: one, manifest: manifest.value, member: true }
        : alone(
            ref,
            refusal(
              "manifest_invalid",
              `the ${item.kind} ${item.name} does not make a valid package`,
              {
                diagnostics: manifest.diagnostics,
              },
            ),
          );
    } catch (error) {
      return alone(ref, refusalOf(error));
    }
  });
  const skills = chosen.skills.map((skill): Staged => {
    const ref = `skill:${skill.name}`;
    const one = stagedSkills.get(skill) ?? stageSkill(skill);
    if ("refusal" in one) return alone(ref, one.refusal);
    const read = skillPackageManifest(one.dir, skill, known(planning, one));
    return read.ok
      ? { staged: one, manifest: read.value, member: true }
      : alone(
          ref,
          refusal("manifest_invalid", `the skill ${skill.name} does not make a valid package`, {
            diagnostics: read.diagnostics,
          }),
        );
  });
  return [
    ...skills,
    ...resources,
    ...chosen.refused.map(({ ref, refusal: refused }) => alone(ref, refused)),
  ];
}

/** A finding in a fetched collection, its path named by the source (`<source>//<path>`), not the staging folder. */
function withSourcePath(
  finding: Diagnostic,
  collection: Pick<FetchedSource, "dir" | "source">,
): Diagnostic {
  const { path } = finding;
  if (path === undefined || !isInside(collection.dir, path)) return finding;
  const inside = relative(collection.dir, path).split(sep).join("/");
  return { ...finding, path: `${describeSource(collection.source)}//${inside}` };
}

/**
 * `--skill` names skills of a package, which installs whole: refused (`package_not_collection`)
 * with the skills it offers and a did-you-mean for names it does not, and the way to install one
 * skill's folder alone (`<source>//<folder>`, a collection of one skill).
 */
function pickFromPackage(
  planning: Unread,
  source: PackageSource,
  staged: StagedSource,
  manifest: PackageManifest,
  pick: readonly string[],
): Refusal {
  const offered = packageSkills(planning.environment, {
    id: manifest.id,
    dir: staged.dir,
    manifest,
  }).map((skill) => ({
    name: skill.name,
    description: skill.description,
    path: relative(staged.dir, skill.baseDir).split(sep).join("/"),
  }));
  const names = offered.map((skill) => skill.name);
  const unknown = pick.filter((name) => name !== "*" && !names.includes(name));
  const [first] = offered.filter((skill) => pick.includes(skill.name));
  return refusal(
    "package_not_collection",
    `${describeSource(source)} is the package ${manifest.id}, which installs whole; --skill picks only from a collection of skills`,
    {
      skills: offered,
      ...(unknown.length === 0
        ? {}
        : {
            unknown: unknown.map((name) => ({ name, suggestion: closest(name, names) ?? null })),
          }),
      ...(first === undefined ? {} : { folder: first.path }),
    },
  );
}

/** What a pick chose from a collection, and what it chose that cannot be installed. */
interface Chosen {
  readonly skills: readonly CollectionSkill[];
  readonly resources: readonly CollectionResource[];
  /** Skills refused alone: a name several skills have, a link out, a file that is no skill. */
  readonly refused: readonly { readonly ref: string; readonly refusal: Refusal }[];
}

/**
 * The skills, prompt templates and agent recipes of `collection` that `pick` names (a name,
 * `kind:name` or a skill's path in the collection; `*`: all), or why they cannot be chosen: none
 * offered (`collection_empty`, the layouts tried and the findings named), several and none picked
 * (`collection_choice_required`), a name not offered (`collection_skill_unknown`, with a
 * did-you-mean). A name several skills have is refused with every path (`collection_duplicate`):
 * a path picks one.
 */
function chooseSkills(
  collection: Collection,
  pick: readonly string[] | undefined,
  from: string,
): Chosen | { refusal: Refusal } {
  const { skills, resources, clashes } = collection;
  const listed = {
    skills: [
      ...skills.map(({ name, description, path }) => ({ kind: "skill", name, description, path })),
      ...resources.map(({ kind, name, description, path }) => ({ kind, name, description, path })),
    ],
    diagnostics: collection.diagnostics,
  };
  const count = skills.length + resources.length;
  if (count === 0)
    return {
      refusal: refusal(
        "collection_empty",
        `${from} has no manifest, and no skills, prompt templates or agents in any layout Skillshelf reads`,
        { ...listed, layouts: COLLECTION_LAYOUTS },
      ),
    };
  const clash = (name: string) => ({
    ref: `skill:${name}`,
    refusal: refusal(
      "collection_duplicate",
      `${from} has ${clashes.get(name)?.length} skills named ${name}: ${clashes.get(name)?.join(", ")}`,
      { name, paths: clashes.get(name) },
    ),
  });
  const leftOut = collection.refused.map((item) => ({
    ref: item.path,
    refusal: refusal(item.code, `${from}: ${item.message}`, { path: item.path }),
  }));
  if (pick === undefined || pick.length === 0) {
    if (count === 1) return { skills, resources, refused: [] };
    return {
      refusal: refusal(
        "collection_choice_required",
        `${from} offers ${count}: ${listed.skills.map((item) => item.name).join(", ")}`,
        listed,
      ),
    };
  }
  if (pick.includes("*"))
    return {
      skills: skills.filter((skill) => !clashes.has(skill.name)),
      resources,
      refused: [...[...clashes.keys()].map(clash), ...leftOut],
    };
  // a template answers to its own name too: `git:commit` for the package `git-commit`
  const ownName = (item: { within?: string }) =>
    item.within === undefined ? [] : [item.within.replace(/\.md$/i, "").split("/").join(":")];
  const names = (item: { kind: string; name: string; within?: string }) => [
    item.name,
    `${item.kind}:${item.name}`,
    ...ownName(item),
  ];
  const asPath = (text: string) => normalizeRelativePath(text.replace(/\/+$/, "")) ?? text;
  const byPath = (text: string) => skills.find((skill) => skill.path === asPath(text));
  const outside = (text: string) => leftOut.find((item) => item.ref === asPath(text));
  const known = [
    ...skills.map((skill) => ({ kind: "skill", name: skill.name })),
    ...resources,
  ].flatMap(names);
  const unknown = pick.filter(
    (text) => !known.includes(text) && byPath(text) === undefined && outside(text) === undefined,
  );
  if (unknown.length > 0)
    return {
      refusal: refusal(
        "collection_skill_unknown",
        `${from} offers no skill named ${unknown.join(", ")}`,
        {
          ...listed,
          unknown: unknown.map((name) => ({ name, suggestion: closest(name, known) ?? null })),
        },
      ),
    };
  const picked = (item: { kind: string; name: string; within?: string }) =>
    names(item).some((name) => pick.includes(name));
  const chosenSkills = new Map<string, CollectionSkill>();
  const refused: { ref: string; refusal: Refusal }[] = [];
  for (const skill of skills) {
    const named = picked({ kind: "skill", name: skill.name });
    const pathed = pick.some((text) => byPath(text) === skill);
    if (!named && !pathed) continue;
    if (pathed || !clashes.has(skill.name)) {
      if (!chosenSkills.has(skill.name)) chosenSkills.set(skill.name, skill);
    } else if (!refused.some((item) => item.ref === `skill:${skill.name}`))
      refused.push(clash(skill.name));
  }
  // a name picked by one path is not refused as a clash
  return {
    skills: [...chosenSkills.values()],
    resources: resources.filter(picked),
    refused: [
      ...refused.filter((item) => !chosenSkills.has(item.ref.slice("skill:".length))),
      ...pick.flatMap((text) => outside(text) ?? []),
    ],
  };
}

/**
 * An install (or update) step for a staged package: its reviewed facts, the lock entry it
 * writes, what it replaces, and the checks of what an index pinned. `undefined` when the scope
 * already holds exactly this package and its links: nothing to do, which an info
 * `already_installed` says.
 */
export function installStep(
  planning: Planning,
  input: {
    readonly operation: "install" | "update";
    readonly scope: PackageScope;
    readonly staged: StagedSource;
    readonly manifest: PackageManifest;
    readonly origin: PackageOrigin;
    readonly pinned?: {
      readonly version?: string | undefined;
      readonly digest?: string | undefined;
    };
    readonly refusal?: Refusal | undefined;
  },
): PlanStep | undefined {
  const { environment, snapshot } = planning;
  const { scope, staged, manifest, operation } = input;
  const id = manifest.id;
  const existing = copyOf(snapshot, scope, id);
  const record: InstallRecord = {
    kind: manifest.kind,
    ...(manifest.version === undefined ? {} : { version: manifest.version }),
    format: manifest.format,
    installedAt: new Date().toISOString(),
    origin: input.origin,
    contentDigest: staged.digest,
    trust: manifest.format === "claude-code" ? "foreign" : "trusted",
    ...(manifest.requires.length === 0 ? {} : { requires: [...manifest.requires] }),
  };
  const enabledAfter = existing?.record === undefined ? true : existing.enabled;
  const before = lockedEntry(environment, scope, id, planning.request.cache);
  const review = reviewFacts(environment, scope, id, planning.request.cache);
  const source: StepSource = {
    source: staged.source,
    dir: staged.dir,
    digest: staged.digest,
    origin: input.origin,
  };
  let refused =
    input.refusal ??
    ("refusal" in review ? review.refusal : undefined) ??
    ("refusal" in before ? before.refusal : undefined) ??
    pinRefusal(manifest, staged.digest, input.pinned) ??
    contentRefusal(environment, staged.dir, manifest);
  const wanted =
    planning.request.links === undefined || refused !== undefined
      ? undefined
      : stepLinks(
          { environment, links: planning.request.links, cache: planning.request.cache },
          { scope, id, dir: staged.dir, manifest },
          planning.diagnostics,
        );
  if (wanted !== undefined && "refusal" in wanted) refused = wanted.refusal;
  const links = wanted !== undefined && "links" in wanted ? wanted.links : undefined;
  if (refused === undefined && operation === "install" && existing?.record !== undefined) {
    // a copy whose tree is gone or holds other bytes than its record is repaired by the same
    // package; one that holds exactly it is left as it is, and only the links missing are made
    const same =
      existing.record.contentDigest === staged.digest && existing.observedDigest === staged.digest;
    if (same && links?.some((link) => !link.inPlace) !== true) {
      planning.diagnostics.push(
        createDiagnostic("info", "already_installed", `${scope}:${id} is already installed`, {
          path: existing.dir,
          details: { id, scope },
        }),
      );
      return undefined;
    }
    // the same package over a copy edited by hand (or gone) is a repair, which --force makes
    if (!same && planning.request.force !== true)
      refused =
        existing.record.contentDigest === staged.digest
          ? refusal(
              "local_changes",
              `${scope}:${id} has files that differ from what was installed`,
              {
                scope,
                id,
              },
            )
          : refusal("installed_differs", `${scope}:${id} is already installed from other content`, {
              scope,
              id,
            });
  }
  const capabilities =
    operation === "update" && existing?.manifest !== undefined
      ? capabilityDiff(
          environment,
          { id, dir: existing.dir, manifest: existing.manifest },
          { id, dir: staged.dir, manifest },
        )
      : undefined;
  return {
    operation,
    ref: `${manifest.kind}:${id}`,
    id,
    kind: manifest.kind,
    scope,
    ...(manifest.version === undefined ? {} : { version: manifest.version }),
    source,
    expected: "facts" in review ? review.facts : [],
    requires: manifest.requires,
    dependents: { newlyBroken: [], preexisting: [] },
    effectiveAfter: {
      scope: effectiveScopeAfterInstall(snapshot, id, scope),
      loadable: enabledAfter,
    },
    recovery:
      operation === "update"
        ? "the replaced tree is kept as the previous version (rollback restores it); files changed locally are kept beside it as a backup"
        : existing === undefined
          ? "nothing to recover; the destination is empty"
          : "files in the current tree that differ from its record are kept beside it as a backup",
    ...(capabilities === undefined ? {} : { capabilities }),
    lock: {
      before: "entry" in before ? before.entry : null,
      after: entryFor(environment, scope, id, record, enabledAfter),
    },
    model: modelView(manifest, source.source, {
      enabled: enabledAfter,
      effective: effectiveScopeAfterInstall(snapshot, id, scope) === scope,
    }),
    ...(links === undefined ? {} : { links }),
    ...(refused === undefined ? {} : { refusal: refused }),
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
  operation: "enable" | "disable" | "remove" | "rollback",
): StepLink[] {
  if (operation === "rollback") return [];
  const read = readScopeState(planning.environment, copy.scope, planning.request.cache);
  const links = read.ok ? (read.value.state.links ?? {}) : {};
  const library = linkLibrary(planning.environment, copy.scope);
  return Object.entries(links)
    .filter(([, record]) => record.package === copy.id)
    .map(([key, record]) => ({
      ...(operation === "enable" ? {} : { operation: "unlink" as const }),
      agent: record.agent,
      key,
      target: join(library, record.target),
      copy: record.mode === "copy",
      inPlace: false,
    }));
}

/** Whether an installed package's skills reach a model, and if not why and what would change it. */
function modelView(
  manifest: PackageManifest,
  source: PackageSource,
  copy: { readonly enabled: boolean; readonly effective: boolean },
): NonNullable<PlanStep["model"]> {
  if (manifest.format === "claude-code")
    return {
      given: false,
      reason:
        "it is a Claude Code plugin, installed as foreign: its skills are listed but never given to a model, since Skillshelf does not run the hooks and servers such a plugin may rely on",
      next: `no command trusts a foreign package yet; to give a model one of its skills, install that skill's folder alone: skillshelf install ${
        source.type === "local"
          ? join(source.path, "skills", "<name>")
          : `${describeSource(source)}//skills/<name>`
      }`,
    };
  if (!copy.enabled)
    return {
      given: false,
      reason: "the copy stays disabled",
      next: `skillshelf enable ${manifest.id}`,
    };
  if (!copy.effective)
    return {
      given: false,
      reason: "the project's copy of the same package counts instead",
      next: `install it into the project, or remove the project's copy: skillshelf remove ${manifest.id} --project`,
    };
  return { given: true };
}

/** A step that changes only state or trees already on disk: enable, disable, remove, rollback. */
export function copyStep(
  planning: Planning,
  operation: "enable" | "disable" | "remove" | "rollback",
  copy: PackageCopy,
): PlanStep {
  const { environment, snapshot } = planning;
  const { scope, id } = copy;
  const kind: PackageKind = copy.manifest?.kind ?? copy.record?.kind ?? "plugin";
  const review = reviewFacts(environment, scope, id, planning.request.cache);
  const before = lockedEntry(environment, scope, id, planning.request.cache);
  let refused: Refusal | undefined =
    ("refusal" in review ? review.refusal : undefined) ??
    ("refusal" in before ? before.refusal : undefined);
  const beforeEntry = "entry" in before ? before.entry : null;
  const record = copy.record;
  let after = snapshot;
  let lockAfter = beforeEntry;
  let note: string | undefined;
  const dependents = {
    newlyBroken: [] as PlanStep["dependents"]["newlyBroken"][number][],
    preexisting: [] as string[],
  };
  if (operation === "enable" || operation === "disable" || operation === "remove") {
    after = snapshotAfter(snapshot, { scope, id, change: operation });
    lockAfter =
      operation === "remove" || record === undefined
        ? null
        : entryFor(environment, scope, id, record, operation === "enable");
    if (operation !== "enable") {
      for (const broken of newlyBrokenDependents(snapshot, after))
        dependents.newlyBroken.push({
          ref: `${refKind(after, broken.id, broken.scope)}:${broken.id}`,
          scope: broken.scope,
          missing: broken.missing,
        });
      dependents.preexisting.push(...preexistingBroken(snapshot));
      if (refused === undefined && dependents.newlyBroken.length > 0)
        refused = refusal(
          "dependents",
          `${operation === "remove" ? "removing" : "disabling"} ${scope}:${id} would break ${dependents.newlyBroken.map((d) => `${d.scope}:${d.ref} (missing ${d.missing.join(", ")})`).join("; ")}`,
          { dependents: dependents.newlyBroken },
        );
    }
    note = fallbackNote(snapshot, after, copy, operation);
  }
  if (operation === "enable" && refused === undefined) {
    if (!copy.valid)
      refused = refusal("copy_invalid", `${scope}:${id} is ${copy.state} and cannot be enabled`, {
        state: copy.state,
      });
    else {
      const unmet = (copy.manifest?.requires ?? []).filter(
        (ref) => !isRequirementMet(snapshot, ref),
      );
      if (unmet.length > 0)
        refused = refusal(
          "requirement_inactive",
          `${scope}:${id} needs ${unmet.join(", ")}, which ${unmet.length === 1 ? "is" : "are"} not loadable`,
          { missing: unmet },
        );
    }
  }
  let source: StepSource | undefined;
  let capabilities: CapabilityDiff | undefined;
  if (operation === "rollback") {
    const previous = record?.previous;
    if (previous === undefined) {
      refused ??= refusal(
        "no_previous_version",
        `${scope}:${id} has no previous version to restore`,
      );
    } else {
      source = {
        source: previous.origin.source,
        dir: copy.dir,
        digest: previous.contentDigest,
        origin: previous.origin,
      };
      lockAfter = entryFor(environment, scope, id, previous, copy.enabled);
      capabilities = rollbackDiff(environment, copy);
    }
  }
  const links = linksOfCopy(planning, copy, operation);
  return {
    operation,
    ref: `${kind}:${id}`,
    id,
    kind,
    scope,
    ...(copy.record?.version === undefined ? {} : { version: copy.record.version }),
    ...(source === undefined ? {} : { source }),
    ...(links.length === 0 ? {} : { links }),
    ...(capabilities === undefined ? {} : { capabilities }),
    expected: "facts" in review ? review.facts : [],
    requires: copy.manifest?.requires ?? [],
    dependents,
    effectiveAfter: operation === "rollback" ? effectiveOf(snapshot, id) : effectiveOf(after, id),
    ...(note === undefined ? {} : { note }),
    recovery:
      operation === "remove"
        ? "files that differ from the recorded content are kept beside the destination as a backup"
        : operation === "rollback"
          ? "the current tree is deleted (kept as a backup if its files changed); nothing earlier is kept, so update goes forward again"
          : "only the enabled flag in state.json changes; no files move",
    lock: { before: beforeEntry, after: lockAfter },
    ...(refused === undefined ? {} : { refusal: refused }),
  };
}

/** A step for a target that could not be resolved at all. */
export function refusedStep(
  target: string,
  scope: PackageScope,
  operation: Operation,
  refused: Refusal,
): PlanStep {
  return {
    operation,
    ref: target,
    id: target,
    kind: "plugin",
    scope,
    expected: [],
    requires: [],
    dependents: { newlyBroken: [], preexisting: [] },
    effectiveAfter: null,
    recovery: "nothing is done",
    lock: { before: null, after: null },
    refusal: refused,
  };
}

// --- internal ---

async function copySteps(
  planning: Planning,
  operation: Exclude<Operation, "install">,
): Promise<PlanStep[]> {
  if (operation === "update") return updateSteps(planning);
  const steps: PlanStep[] = [];
  for (const target of planning.request.targets) {
    const id = target.includes(":") ? target.slice(target.indexOf(":") + 1) : target;
    const scope = copyScope(planning.snapshot, id, planning.request.scope);
    const copy = scope === undefined ? undefined : copyOf(planning.snapshot, scope, id);
    if (copy === undefined || scope === undefined)
      steps.push(
        refusedStep(
          target,
          scope ?? "user",
          operation,
          refusal(
            "not_installed",
            `${id} is not installed${scope === undefined ? "" : ` in the ${scope} scope`}`,
          ),
        ),
      );
    else steps.push(copyStep(planning, operation, copy));
  }
  return steps;
}

async function installSteps(unread: Unread): Promise<PlanStep[]> {
  const { environment, discovery } = unread;
  const scope = unread.request.scope ?? "user";
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
    requested.add(`${result.manifest.kind}:${result.manifest.id}`);
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
      if (requested.has(`${row.kind}:${row.name}`)) continue;
      const result = await stage(planning, row.source);
      if ("refusal" in result)
        steps.push(refusedStep(`${row.kind}:${row.name}`, scope, "install", result.refusal));
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

/** The package ids `refs` name, with every requirement the index rows name for them, transitively. */
function concernedIds(rows: readonly IndexRow[], refs: readonly string[]): string[] {
  const seen = new Set<string>();
  const pending = [...refs];
  for (let ref = pending.pop(); ref !== undefined; ref = pending.pop()) {
    if (seen.has(ref)) continue;
    seen.add(ref);
    for (const row of rows) if (`${row.kind}:${row.name}` === ref) pending.push(...row.requires);
  }
  return [...seen].map((ref) => ref.slice(ref.indexOf(":") + 1));
}

async function updateSteps(planning: Planning): Promise<PlanStep[]> {
  const { snapshot, discovery, request } = planning;
  const steps: PlanStep[] = [];
  for (const target of request.targets) {
    const id = target.includes(":") ? target.slice(target.indexOf(":") + 1) : target;
    const scope = copyScope(snapshot, id, request.scope);
    const copy = scope === undefined ? undefined : copyOf(snapshot, scope, id);
    const record = copy?.record;
    if (copy === undefined || record === undefined || scope === undefined) {
      steps.push(
        refusedStep(
          target,
          scope ?? "user",
          "update",
          refusal("not_installed", `${id} is not installed`),
        ),
      );
      continue;
    }
    const kind = record.kind;
    const row =
      record.origin.index === undefined
        ? undefined
        : discovery.rows.find((candidate) => candidate.kind === kind && candidate.name === id);
    if (record.origin.index !== undefined && row === undefined) {
      steps.push(
        refusedStep(
          `${kind}:${id}`,
          scope,
          "update",
          refusal("source_unavailable", `no index offers ${kind}:${id} any more`, {
            index: record.origin.index,
          }),
        ),
      );
      continue;
    }
    let source: PackageSource = row?.source ?? record.origin.source;
    if (request.ref !== undefined && source.type === "git")
      source = { ...source, ref: request.ref };
    const localChanges =
      copy.state === "damaged" && request.force !== true
        ? refusal("local_changes", `${scope}:${id} has files that differ from what was installed`)
        : undefined;
    const result = await stage(planning, source);
    if ("refusal" in result) {
      steps.push(refusedStep(`${kind}:${id}`, scope, "update", result.refusal));
      continue;
    }
    if (result.staged.digest === record.contentDigest && copy.state !== "damaged") {
      const { commit } = result.staged;
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
      continue;
    }
    pushStep(
      steps,
      installStep(planning, {
        operation: "update",
        scope,
        staged: result.staged,
        manifest: result.manifest,
        origin:
          row === undefined ? originOf(result.staged, undefined) : originOf(result.staged, row),
        ...(row === undefined ? {} : { pinned: { version: row.version, digest: row.sha256 } }),
        refusal: localChanges,
      }),
    );
  }
  return steps;
}

/** Why an update found nothing to change, in words: the same commit, or files that did not change. */
function unchangedBecause(
  source: PackageSource,
  installed: string | undefined,
  fetched: string | undefined,
): string {
  if (source.type !== "git" || fetched === undefined) return "the source holds the installed files";
  const ref = source.ref ?? "HEAD";
  if (fetched === source.ref)
    return `it is pinned to commit ${fetched}, and a commit does not move`;
  if (fetched === installed) return `${ref} still names the installed commit ${fetched}`;
  return `${ref} moved to ${fetched}, but this package's files did not change`;
}

// a step, unless there was nothing to do
function pushStep(steps: PlanStep[], step: PlanStep | undefined): void {
  if (step !== undefined) steps.push(step);
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

function originOf(staged: StagedSource, row: IndexRow | undefined): PackageOrigin {
  return {
    source: staged.source,
    ...(staged.commit === undefined ? {} : { commit: staged.commit }),
    ...(row === undefined ? {} : { index: row.index }),
  };
}

function pinRefusal(
  manifest: PackageManifest,
  digest: string,
  pinned:
    | { readonly version?: string | undefined; readonly digest?: string | undefined }
    | undefined,
): Refusal | undefined {
  if (pinned?.digest !== undefined && pinned.digest !== digest)
    return refusal(
      "digest_mismatch",
      `${manifest.id} digests to ${digest}, not the pinned ${pinned.digest}`,
      {
        expected: pinned.digest,
        observed: digest,
      },
    );
  if (pinned?.version !== undefined && pinned.version !== manifest.version)
    return refusal(
      "identity_mismatch",
      `${manifest.id} is version ${String(manifest.version)}, not the pinned ${pinned.version}`,
      { expected: pinned.version, observed: manifest.version },
    );
  return undefined;
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
  const needed = resolution.order.map((row) => `${row.kind}:${row.name}`);
  if (!withRequirements && needed.length > 0)
    return {
      ...refusal(
        "requirement_missing",
        `needs ${needed.join(", ")}, which ${needed.length === 1 ? "is" : "are"} not installed`,
        {
          missing: needed,
        },
      ),
      hint: "plan again with requirements (--with-requirements) to install them first",
    };
  return undefined;
}

function effectiveScopeAfterInstall(
  snapshot: PackageSnapshot,
  id: string,
  scope: PackageScope,
): PackageScope {
  if (scope === "project") return "project";
  const project = copyOf(snapshot, "project", id);
  return project?.valid === true ? "project" : "user";
}

function fallbackNote(
  before: PackageSnapshot,
  after: PackageSnapshot,
  copy: PackageCopy,
  operation: "enable" | "disable" | "remove",
): string | undefined {
  const other = copiesOf(after, copy.id).find((candidate) => candidate.scope !== copy.scope);
  if (operation === "disable" && copy.scope === "project" && other?.valid === true)
    return "the disabled project copy still shadows the user copy; removal would reveal it";
  const wasLoadable = copiesOf(before, copy.id).some(
    (candidate) => candidate.scope !== copy.scope && candidate.loadable,
  );
  if (operation === "remove" && other?.loadable === true && !wasLoadable)
    return `the ${other.scope} copy becomes effective (loadable)`;
  if (operation === "remove" && other === undefined)
    return "no other copy exists; the package will be absent";
  return undefined;
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

/** A source as a user names it: a folder's path, or a URL. */
export function describeSource(source: PackageSource): string {
  return source.type === "local" ? source.path : source.url;
}
