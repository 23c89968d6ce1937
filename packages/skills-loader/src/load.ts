import { basename, dirname, join, resolve } from "node:path";
import { dedupeByRealPath, resolveResourceCollisions, skillRules } from "@skillshelf/collision";
import {
  assertLoaderOptions,
  createDiagnostic,
  type Diagnostic,
  fileStamp,
  isInside,
  isTrustedRoot,
  type ResourceRoot,
  realpathOrUndefined,
  resolveEnvironment,
  sortDiagnostics,
  withDefaultContainment,
} from "@skillshelf/core";
import { readSkillFile } from "./_read-skill.js";
import { type SkillLocation, type WalkResult, walkSkillRoot } from "./_walk.js";
import { defaultSkillRoots, explicitSkillRoots } from "./roots.js";
import { resolveToolList } from "./tools.js";
import type { LoadSkillsCode, LoadSkillsInput, LoadSkillsResult, Skill } from "./types.js";

/**
 * Load every skill visible from `cwd`: walk the roots (by default every agent folder and both
 * libraries, see `defaultSkillRoots`), read and check each skill file, keep one entry per real
 * file, and resolve name clashes by the skill order (trusted, owned, precedence, agent rank,
 * path). Never throws on bad content: every problem is a diagnostic with a stable code and path,
 * and the rest still loads. A missing root is not an error.
 *
 * @example
 * const { items, diagnostics } = loadSkills({ cwd: "/work/app" });
 * const forModel = modelVisibleSkills(items);
 */
export function loadSkills(input: LoadSkillsInput = {}): LoadSkillsResult {
  assertLoaderOptions(input);
  const environment = resolveEnvironment(input);
  const diagnostics: Diagnostic[] = [];
  const explicitPaths = (input.explicitSkillPaths ?? []).filter((path) => {
    if (path.trim() !== "") return true;
    diagnostics.push(createDiagnostic("error", "path_empty", "an explicit skill path is empty"));
    return false;
  });
  const baseRoots =
    input.roots !== undefined
      ? withDefaultContainment(input.roots, environment)
      : input.disableDiscovery === true
        ? []
        : defaultSkillRoots(environment);
  const roots = [
    ...baseRoots,
    ...explicitSkillRoots(explicitPaths, environment.cwd).flatMap((root) =>
      ownedExplicitRoot(root, baseRoots, input, diagnostics),
    ),
  ];
  const candidates: Skill[] = [];
  const walks: WalkResult[] = [];
  const { cache } = input;
  const known = cache === undefined ? undefined : (path: string) => cache.knows(path);
  for (const root of roots) {
    const context = rootContext(root, input);
    const walked = walkSkillRoot(root, {
      known,
      unchanged: cache === undefined ? undefined : (folder) => cache.unchanged(folder),
      listings: cache?.listings,
      found: (location) => {
        const skill = loadOne(location, root, context, input, diagnostics);
        if (skill !== undefined) candidates.push(skill);
      },
    });
    walks.push(walked);
    diagnostics.push(...walked.diagnostics);
    if (root.scope === "cli" && walked.found === 0 && walked.diagnostics.length === 0) {
      diagnostics.push(
        createDiagnostic("error", "path_missing", `no skill at ${root.path}; check the path`, {
          path: root.path,
        }),
      );
    }
  }
  const copies = input.copiesOf ?? new Map<string, string>();
  const reachesTwice = copies.size > 0 || mayReachOneFileTwice(walks);
  // an unchanged tree read again through the cache gives the same skills and findings: the
  // clashes are not resolved again (a copy's target is looked up on disk, so not with copies)
  const key =
    cache === undefined || copies.size > 0
      ? undefined
      : `${reachesTwice}\0${JSON.stringify(diagnostics)}`;
  const last = key === undefined ? undefined : cache?.lastLoad();
  if (last !== undefined && last.key === key && sameSkills(last.candidates, candidates))
    return freshArrays(last.result);
  // a copy Skillshelf made of a skill counts as the skill it copies: one skill seen twice
  const realPathOf = (skill: Skill) => {
    const copied = copies.get(skill.baseDir);
    return copied === undefined
      ? skill.realPath
      : (realpathOrUndefined(join(copied, basename(skill.path))) ?? skill.realPath);
  };
  const deduped = reachesTwice
    ? dedupeByRealPath(candidates, realPathOf, skillRules)
    : { kept: candidates, diagnostics: [] };
  const resolved = resolveResourceCollisions(deduped.kept);
  diagnostics.push(
    ...deduped.diagnostics,
    ...resolved.diagnostics,
    ...missingRequirements(resolved.winners),
    ...hiddenForTrust(resolved.winners),
  );
  const result: LoadSkillsResult = {
    items: resolved.winners,
    // each piece above reports its own codes, core's or the resolver's (the catalogue's owners;
    // test/codes.test.ts holds the loader to it over the corpus and hostile trees)
    diagnostics: sortDiagnostics(diagnostics) as Diagnostic<LoadSkillsCode>[],
    collisions: resolved.groups,
  };
  if (key === undefined) return result;
  cache?.rememberLoad({ key, candidates, result });
  return freshArrays(result);
}

// --- internal ---

function sameSkills(one: readonly Skill[], other: readonly Skill[]): boolean {
  return one.length === other.length && one.every((skill, index) => skill === other[index]);
}

/** The result with arrays of its own: a caller may sort or change them. */
function freshArrays(result: LoadSkillsResult): LoadSkillsResult {
  return {
    items: [...result.items],
    diagnostics: [...result.diagnostics],
    collisions: [...result.collisions],
  };
}

/**
 * One info when skills a model would otherwise see are kept from it only for trust: they are in
 * another agent's folder, or in an imported plugin not trusted; how many, whose, and what changes it.
 */
function hiddenForTrust(winners: readonly Skill[]): Diagnostic[] {
  const hidden = winners.filter(
    (skill) =>
      !skill.trusted &&
      !skill.disableModelInvocation &&
      skill.source !== "skillshelf" &&
      skill.source !== "path",
  );
  if (hidden.length === 0) return [];
  const sources = [...new Set(hidden.map((skill) => skill.source))].sort();
  const agents = sources.filter((source) => !source.startsWith(PACKAGE_SOURCE));
  const plugins = sources
    .filter((source) => source.startsWith(PACKAGE_SOURCE))
    .map((source) => source.slice(PACKAGE_SOURCE.length));
  const places = [
    ...(agents.length === 0 ? [] : [`another agent's folder (${agents.join(", ")})`]),
    ...(plugins.length === 0 ? [] : [`an imported plugin not trusted (${plugins.join(", ")})`]),
  ];
  return [
    createDiagnostic(
      "info",
      "untrusted_hidden",
      `${hidden.length} skill${hidden.length === 1 ? " is" : "s are"} in ${places.join(" or ")} and not shown to a model`,
      // a host to suggest only when an agent's folder is involved; else the catalogue's plain hint
      {
        details: {
          count: hidden.length,
          sources,
          ...(agents.length === 0 ? {} : { suggestion: agents[0] }),
        },
      },
    ),
  ];
}

/** How a package's resources name their source: `package:<id>`. */
const PACKAGE_SOURCE = "package:";

function loadOne(
  location: SkillLocation,
  root: ResourceRoot,
  context: RootContext,
  input: LoadSkillsInput,
  diagnostics: Diagnostic[],
): Skill | undefined {
  const record = readSkillFile(location, context.includeBody, input.cache);
  const previous = input.cache?.built(location.path);
  if (previous !== undefined && previous.record === record && previous.context === context.key) {
    diagnostics.push(...record.diagnostics, ...previous.diagnostics);
    return previous.skill;
  }
  diagnostics.push(...record.diagnostics);
  const fields = record.fields;
  if (fields === undefined || record.signature === undefined) return undefined;
  const toolDiagnostics: Diagnostic[] = [];
  const skill: Mutable<Skill> = {
    name: fields.name,
    description: fields.description,
    path: location.path,
    realPath: location.realPath,
    baseDir: location.baseDir,
    pathSubject: location.subject,
    scope: root.scope,
    source: root.source,
    origin: root.origin,
    precedence: root.precedence,
    ...(root.owner === undefined ? {} : { owner: root.owner }),
    trusted: context.trusted,
    disableModelInvocation: fields.disableModelInvocation,
    userInvocable: fields.userInvocable,
    addressable: fields.addressable,
    stamp: fileStamp(record.signature),
    frontmatter: fields.frontmatter,
    requires: fields.requires,
  };
  const allowedTools = resolveTools(
    fields.allowedTools,
    "allowed-tools",
    location.path,
    input,
    toolDiagnostics,
  );
  if (allowedTools !== undefined) skill.allowedTools = allowedTools;
  const disallowedTools = resolveTools(
    fields.disallowedTools,
    "disallowed-tools",
    location.path,
    input,
    toolDiagnostics,
  );
  if (disallowedTools !== undefined) skill.disallowedTools = disallowedTools;
  if (fields.provenance !== undefined) skill.provenance = fields.provenance;
  if (record.body !== undefined) skill.body = record.body;
  if (record.hash !== undefined) skill.hash = record.hash;
  diagnostics.push(...toolDiagnostics);
  input.cache?.remember(location.path, {
    record,
    context: context.key,
    skill,
    diagnostics: toolDiagnostics,
  });
  return skill;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** What a skill built under a root depends on besides its file. */
interface RootContext {
  readonly trusted: boolean;
  readonly includeBody: boolean;
  readonly key: string;
}

function rootContext(root: ResourceRoot, input: LoadSkillsInput): RootContext {
  const trusted = isTrustedRoot(root, input.trustImports === true);
  const includeBody =
    typeof input.includeBody === "function" ? input.includeBody(root) : input.includeBody === true;
  const tools = input.toolNames === undefined ? "" : input.toolNames.join("\n");
  return {
    trusted,
    includeBody,
    key: [root.scope, root.source, root.origin, root.precedence, trusted, includeBody, tools].join(
      "\0",
    ),
  };
}

function resolveTools(
  tools: readonly string[] | undefined,
  key: "allowed-tools" | "disallowed-tools",
  path: string,
  input: LoadSkillsInput,
  diagnostics: Diagnostic[],
): readonly string[] | undefined {
  if (tools === undefined || input.toolNames === undefined) return tools;
  const resolved = resolveToolList(tools, input.toolNames, key, path);
  diagnostics.push(...resolved.diagnostics);
  return resolved.tools;
}

/**
 * An explicit path inside an installed package copy counts only under a package root being loaded
 * (an enabled, declared resource folder), and takes that root's trust; otherwise it is refused.
 */
function ownedExplicitRoot(
  root: ResourceRoot,
  roots: readonly ResourceRoot[],
  input: LoadSkillsInput,
  diagnostics: Diagnostic[],
): ResourceRoot[] {
  const packageDir = input.packageDirs?.find((dir) => isInside(resolve(dir), root.path));
  if (packageDir === undefined) return [root];
  const owner = roots.find(
    (candidate) => candidate.scope === "package" && isInside(resolve(candidate.path), root.path),
  );
  if (owner !== undefined) return [{ ...root, trust: owner.trust, containment: owner.containment }];
  diagnostics.push(
    createDiagnostic(
      "error",
      "package_inactive",
      `${root.path} belongs to an installed package that is disabled or does not declare it`,
      { path: root.path, details: { packageDir } },
    ),
  );
  return [];
}

/** Only a followed link or two nested roots can reach one file twice; otherwise skip the dedupe. */
function mayReachOneFileTwice(walks: readonly WalkResult[]): boolean {
  if (walks.some((walk) => walk.followedLinks)) return true;
  const reals = walks.flatMap((walk) => (walk.rootReal === undefined ? [] : [walk.rootReal]));
  const roots = new Set(reals);
  if (roots.size < reals.length) return true;
  // a root inside another has it among its ancestors: a walk up each, not a check of every pair
  return reals.some((real) => {
    for (
      let child = real, parent = dirname(real);
      parent !== child;
      child = parent, parent = dirname(parent)
    )
      if (roots.has(parent)) return true;
    return false;
  });
}

function missingRequirements(winners: readonly Skill[]): Diagnostic[] {
  if (!winners.some((skill) => skill.requires.length > 0)) return [];
  const names = new Set(winners.map((skill) => skill.name));
  const diagnostics: Diagnostic[] = [];
  for (const skill of winners) {
    for (const requirement of skill.requires) {
      if (!requirement.startsWith("skill:")) continue;
      const dependency = requirement.slice("skill:".length).trim();
      if (names.has(dependency)) continue;
      diagnostics.push(
        createDiagnostic(
          "warning",
          "requirement_missing",
          `${skill.name} requires skill "${dependency}", which is not available`,
          {
            path: skill.path,
            details: {
              name: skill.name,
              requirement,
            },
          },
        ),
      );
    }
  }
  return diagnostics;
}
