import { dirname, join } from "node:path";
import { resolveResourceCollisions } from "@skillshelf/collision";
import {
  assertLoaderOptions,
  createDiagnostic,
  type Diagnostic,
  findMarkdownFiles,
  type MarkdownFile,
  type ResourceRoot,
  readTextDocument,
  resolveEnvironment,
  resourcePlace,
  sortDiagnostics,
  withDefaultContainment,
} from "@skillshelf/core";
import { parseFleetContract } from "./fleet.js";
import { fleetPrerequisites } from "./prerequisites.js";
import { parseAgentRecipe } from "./recipe.js";
import { defaultFleetRoots, defaultRecipeRoots } from "./roots.js";
import type {
  AgentRecipe,
  FleetContract,
  LoadRecipesCode,
  LoadRecipesInput,
  LoadRecipesResult,
  RecipePlace,
} from "./types.js";

/** Recipe and contract files over this many bytes are refused. */
export const MAX_RECIPE_BYTES = 262_144;

/**
 * Load the agent recipes directly inside each root (`agents/*.md`; no nesting), parsed strictly:
 * a broken recipe is reported and left out, the rest still load. Name clashes resolve as for
 * skills. With `skillNames`, a bound skill that is not among them is a `skill_unresolved` warning.
 */
export function loadAgentRecipes(input: LoadRecipesInput = {}): LoadRecipesResult<AgentRecipe> {
  assertLoaderOptions(input);
  const environment = resolveEnvironment(input);
  const roots =
    input.roots === undefined
      ? defaultRecipeRoots(environment)
      : withDefaultContainment(input.roots, environment);
  const skills = input.skillNames === undefined ? undefined : new Set(input.skillNames);
  return loadEach(roots, input, (file, place, diagnostics) => {
    const parsed = parseFile(file, diagnostics, (text) =>
      parseAgentRecipe(text, { path: file.path, id: place.id }),
    );
    const recipe = parsed?.recipe;
    if (recipe === undefined) return undefined;
    for (const skill of recipe.skills) {
      if (skills === undefined || skills.has(skill)) continue;
      diagnostics.push(
        createDiagnostic(
          "warning",
          "skill_unresolved",
          `agent "${recipe.name}" binds skill "${skill}", which is not available`,
          { path: file.path, details: { skill } },
        ),
      );
    }
    return { ...recipe, ...place };
  });
}

/**
 * Load the fleet contracts directly inside each root (`fleets/*.md`), parsed strictly. Each
 * contract lists as prerequisites the agents and commands its steps name that are not defined
 * beside it (in the sibling `agents/` folder of its root).
 */
export function loadFleetContracts(input: LoadRecipesInput = {}): LoadRecipesResult<FleetContract> {
  assertLoaderOptions(input);
  const environment = resolveEnvironment(input);
  const roots =
    input.roots === undefined
      ? defaultFleetRoots(environment)
      : withDefaultContainment(input.roots, environment);
  const besideCache = new Map<string, string[]>();
  return loadEach(roots, input, (file, place, diagnostics, root) => {
    const fleet = parseFile(file, diagnostics, (text) =>
      parseFleetContract(text, { path: file.path }),
    )?.fleet;
    if (fleet === undefined) return undefined;
    const agentsDir = join(dirname(root.path), "agents");
    let agents = besideCache.get(agentsDir);
    if (agents === undefined) {
      agents = loadAgentRecipes({
        ...input,
        roots: [{ ...root, path: agentsDir }],
        skillNames: undefined,
      }).items.map((recipe) => recipe.name);
      besideCache.set(agentsDir, agents);
    }
    return { ...fleet, ...place, prerequisites: fleetPrerequisites(fleet, { agents }) };
  });
}

// --- internal ---

function loadEach<T extends RecipePlace & { readonly name: string }>(
  roots: readonly ResourceRoot[],
  input: LoadRecipesInput,
  load: (
    file: MarkdownFile,
    place: RecipePlace,
    diagnostics: Diagnostic[],
    root: ResourceRoot,
  ) => T | undefined,
): LoadRecipesResult<T> {
  const diagnostics: Diagnostic[] = [];
  const candidates: T[] = [];
  for (const root of roots) {
    const walk = findMarkdownFiles(root, { recursive: false });
    diagnostics.push(...walk.diagnostics);
    for (const file of walk.files) {
      const place: RecipePlace = {
        id: file.relativePath.replace(/\.md$/i, ""),
        ...resourcePlace(root, file, input.trustImports === true),
      };
      const item = load(file, place, diagnostics, root);
      if (item !== undefined) candidates.push(item);
    }
  }
  const resolved = resolveResourceCollisions(candidates);
  diagnostics.push(...resolved.diagnostics);
  return {
    items: resolved.winners,
    // each piece reports its own codes, core's or the resolver's (the catalogue's owners)
    diagnostics: sortDiagnostics(diagnostics) as Diagnostic<LoadRecipesCode>[],
    collisions: resolved.groups,
  };
}

function parseFile<R>(
  file: MarkdownFile,
  diagnostics: Diagnostic[],
  parse: (text: string) => R & { diagnostics: Diagnostic[] },
): R | undefined {
  const document = readTextDocument({
    path: file.path,
    realPath: file.realPath,
    maxBytes: MAX_RECIPE_BYTES,
    what: "file",
  });
  if (!document.ok) {
    diagnostics.push(...document.diagnostics);
    return undefined;
  }
  const parsed = parse(document.value.text);
  diagnostics.push(...parsed.diagnostics);
  return parsed;
}
