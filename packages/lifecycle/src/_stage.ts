// Staging what a plan installs: a package, a marketplace's plugins, or the chosen skills of a collection.
import { lstatSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { analyzeCode, auditTree, startAudit } from "@skillshelf/audit";
import {
  closest,
  createDiagnostic,
  type Diagnostic,
  identityKey,
  isInside,
  type PackageSource,
} from "@skillshelf/core";
import {
  type CollectionSkill,
  createStagingArea,
  describeSource,
  digested,
  type FetchedSource,
  fetchSource,
  folderInPlace,
  MARKETPLACE_FILES,
  readCollection,
  repositoryPlugins,
  type StagedSource,
  type StagingArea,
  sourceWithin,
  stageCollectionResource,
  stageCollectionSkill,
} from "@skillshelf/sources";
import {
  hasManifestEntry,
  type PackageManifest,
  readPackageManifest,
  type ScopeCache,
  skillPackageManifest,
} from "@skillshelf/store";
import { chooseSkills } from "./_choose.js";
import type { StagePlanning } from "./_planning.js";
import { refusal, refusalOf } from "./_refusal.js";
import type { Refusal } from "./types.js";

/** Stage a source for a step; a failure is the step's refusal. */
export async function stage(planning: StagePlanning, source: PackageSource): Promise<Staged> {
  // a recorded source names one package, or one skill's folder: never a choice to make
  return (await stagePackages(planning, source, undefined))[0] as Staged;
}

/**
 * A staged package and its manifest (`member`: one skill of a collection, refused alone), or why
 * there is none (`ref`: what the refused step is called, when not the target).
 */
export type Staged =
  | { staged: StagedSource; manifest: PackageManifest; member?: true }
  | { refusal: Refusal; ref?: string };

/**
 * Stage a source and read the packages it holds: the one package of a folder with a manifest, or
 * the chosen skills of a collection (a folder with none), each staged as a `skill`
 * package of its own. `pick` names the skills (`*`: all); without it a collection of one skill
 * gives that one and one of several is refused with the skills listed.
 */
export async function stagePackages(
  planning: StagePlanning,
  source: PackageSource,
  pick: readonly string[] | undefined,
  plugins?: readonly string[] | undefined,
): Promise<Staged[]> {
  return withCodeRead(planning, await stageUnread(planning, source, pick, plugins));
}

/**
 * The audits of what was staged, their code read as syntax trees (`analyzeCode`): the grammars
 * are loaded only when a staged tree holds code worth reading, once per plan.
 */
async function withCodeRead(planning: StagePlanning, staged: Staged[]): Promise<Staged[]> {
  if (planning.codeParsers === undefined) return staged;
  for (const one of staged) {
    if ("refusal" in one) continue;
    const report = planning.audits.get(one.staged) ?? auditTree(one.staged.dir);
    planning.audits.set(one.staged, await analyzeCode(report, planning.codeParsers));
  }
  return staged;
}

async function stageUnread(
  planning: StagePlanning,
  source: PackageSource,
  pick: readonly string[] | undefined,
  plugins?: readonly string[] | undefined,
): Promise<Staged[]> {
  planning.request.progress?.({ phase: "stage", source: describeSource(source) });
  // a recorded package made of one template or recipe of a collection is found in it again
  if (source.resource !== undefined) {
    const { resource, ...collection } = source;
    return stageUnread(planning, collection, [resource]);
  }
  const inPlace = folderInPlace(source);
  // a local folder's plugins are staged from their folders like any local package
  if (plugins !== undefined && plugins.length > 0 && inPlace !== undefined)
    return stagePlugins(planning, { dir: inPlace, source, release: () => undefined }, plugins);
  // a local folder with no manifest is a collection read where it is: only its chosen skills are copied
  if (inPlace !== undefined && isRealFolder(inPlace) && !hasManifestEntry(inPlace))
    return stageSkills(planning, { dir: inPlace, source }, pick, { inPlace: false });
  const { fetches } = planning.request;
  let fetched: FetchedSource;
  try {
    fetched = planning.staging.add(
      fetches?.take(source) ?? (await fetchSource(source, planning.request.stage)),
    );
  } catch (error) {
    return [{ refusal: refusalOf(error) }];
  }
  const staged = await fetchedUnread(planning, fetched, pick, plugins);
  // refused until skills are picked: the plan made with the pick takes this fetch
  const [only] = staged;
  if (only !== undefined && "refusal" in only && only.refusal.code === "collection_choice_required")
    fetches?.keep(source, planning.staging.handOver(fetched));
  return staged;
}

/**
 * `stagePackages` of a source already fetched into `fetched` (which the plan's staging holds):
 * its plugins, the chosen skills of a collection, or its one package; audited unless `audit` is
 * false (a verdict carried with it will be taken instead).
 */
export async function stageFetched(
  planning: StagePlanning,
  fetched: FetchedSource,
  pick: readonly string[] | undefined,
  plugins?: readonly string[] | undefined,
  audit = true,
): Promise<Staged[]> {
  const staged = await fetchedUnread(planning, fetched, pick, plugins);
  return audit ? withCodeRead(planning, staged) : staged;
}

async function fetchedUnread(
  planning: StagePlanning,
  fetched: FetchedSource,
  pick: readonly string[] | undefined,
  plugins?: readonly string[] | undefined,
): Promise<Staged[]> {
  const { source } = fetched;
  // what its fetch found to say: an MCP server's skill left out alone, another tool's signature
  planning.diagnostics.push(...(fetched.findings ?? []));
  if (plugins !== undefined && plugins.length > 0) return stagePlugins(planning, fetched, plugins);
  // a fetched collection's skills are digested one by one, each where it was fetched; so are the
  // skills picked from a package (a plugin's `skills/`): what a user names is a skill of theirs
  if (!hasManifestEntry(fetched.dir) || (pick !== undefined && pick.length > 0))
    return stageSkills(planning, fetched, pick, { inPlace: true });
  let staged: StagedSource;
  try {
    staged = digested(fetched);
  } catch (error) {
    return [{ refusal: refusalOf(error) }];
  }
  const manifest = readPackageManifest(staged.dir, known(planning, staged));
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
  planning: StagePlanning,
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
    if (plugin.folder === undefined || folderInPlace(fetched.source) !== undefined) {
      staged.push(...(await stagePackages(planning, plugin.source, undefined)));
      continue;
    }
    const dir = join(fetched.dir, ...plugin.folder.split("/"));
    if (lstatSync(dir, { throwIfNoEntry: false }) === undefined) {
      // named where the user can find it, not in the plan's staging
      staged.push({
        ref: `plugin:${name}`,
        refusal: refusal(
          "tree_missing",
          `${listed.marketplace} of ${from} lists the plugin ${name} at ${plugin.folder}, which the repository does not hold`,
          { plugin: name, folder: plugin.folder },
        ),
      });
      continue;
    }
    try {
      // kept in the repository: staged where it was fetched, which the plan already holds
      const one = digested({
        dir,
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

/**
 * For a repository that offers nothing to install on its own (`collection_empty`) but whose
 * marketplace lists plugins: the refusal that names them (`plugin_choice_required`), since
 * `--plugin` is what installs them.
 */
function pluginsOffered(
  collection: Pick<FetchedSource, "dir" | "source">,
  refused: Refusal,
): { refusal: Refusal } | undefined {
  if (refused.code !== "collection_empty") return undefined;
  const listed = repositoryPlugins(collection);
  if (listed === undefined || listed.plugins.length === 0) return undefined;
  const plugins = listed.plugins.map(({ name, description }) => ({ name, description }));
  return {
    refusal: refusal(
      "plugin_choice_required",
      `${describeSource(collection.source)} offers its plugins through ${listed.marketplace}: ${plugins.map((plugin) => plugin.name).join(", ")}`,
      { marketplace: listed.marketplace, plugins },
    ),
  };
}

/** A manifest read here is the one the read-back finds in the installed copy of these bytes. */
function known(
  planning: StagePlanning,
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
  planning: StagePlanning,
  collection: Pick<FetchedSource, "dir" | "source" | "commit" | "commits" | "signers">,
  pick: readonly string[] | undefined,
  { inPlace }: { readonly inPlace: boolean },
): Staged[] {
  const { source } = collection;
  const read = readCollection(collection.dir, {
    skillFiles: planning.skillFiles,
    fullDepth: planning.request.fullDepth,
    source,
  });
  const chosen = chooseSkills(read, pick, describeSource(source));
  if ("refusal" in chosen) return [pluginsOffered(collection, chosen.refusal) ?? chosen];
  for (const { folder, count } of read.passedOver)
    planning.diagnostics.push(
      createDiagnostic(
        "info",
        "collection_passed_over",
        `${count} more SKILL.md under ${folder}/ of ${describeSource(source)} were passed over: the layouts before them held skills`,
        { details: { folder, count, source: describeSource(sourceWithin(source, folder)) } },
      ),
    );
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
      const where =
        inPlace && !outer.includes(skill) ? { tempDir, inPlace: true } : { area: areaForCopies() };
      // audited from the bytes the digest reads: each file is read once
      const audit = startAudit();
      const staged = planning.staging.add(
        stageCollectionSkill(collection, skill, { ...where, read: (file) => audit.file(file) }),
      );
      planning.audits.set(staged, audit.report(staged.dir));
      // a tree read in place is known to the writer that moves it in, while its stamp holds
      if (staged.stamped !== undefined)
        planning.request.cache?.trees.set(staged.dir, { ...staged.stamped, digest: staged.digest });
      return staged;
    } catch (error) {
      // named where the user can find it: in the source, not in a staging folder
      const top = inPlace ? `${describeSource(source)}//` : `${collection.dir}${sep}`;
      const places: [string, string][] = [[`${collection.dir}${sep}`, top]];
      if (area !== undefined)
        places.unshift([`${join(area.dir, skill.name)}${sep}`, `${top}${skill.path}/`]);
      return { refusal: renamed(refusalOf(error), places) };
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
    const ref = identityKey(item.kind, item.name);
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

/** `refused` with each staging folder in its message and path (`from`) named as `to` instead. */
function renamed(refused: Refusal, places: readonly (readonly [string, string])[]): Refusal {
  const rename = (text: string) =>
    places.reduce((named, [from, to]) => named.split(from).join(to), text);
  return {
    ...refused,
    message: rename(refused.message),
    ...(refused.path === undefined ? {} : { path: rename(refused.path) }),
  };
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
