import type { CollisionGroup } from "@skillshelf/collision";
import type {
  CodesOf,
  Diagnostic,
  EnvironmentInput,
  ResourcePlace,
  ResourceRoot,
} from "@skillshelf/core";
import type { FleetContractFields } from "./fleet.js";
import type { FleetPrerequisite } from "./prerequisites.js";
import type { AgentRecipeFields } from "./recipe.js";

/** Where a recipe or contract was found, and its file name without `.md`. */
export interface RecipePlace extends ResourcePlace {
  readonly id: string;
}

/** A loaded agent recipe. */
export interface AgentRecipe extends AgentRecipeFields, RecipePlace {}

/** A loaded fleet contract, with what it needs that is not defined beside it. */
export interface FleetContract extends FleetContractFields, RecipePlace {
  readonly prerequisites: readonly FleetPrerequisite[];
}

/** Input of `loadAgentRecipes` and `loadFleetContracts`; every field is optional. */
export interface LoadRecipesInput extends EnvironmentInput {
  /** Replaces the default roots. */
  readonly roots?: readonly ResourceRoot[] | undefined;
  /** Let recipes from `foreign` packages count as trusted. Default false. */
  readonly trustImports?: boolean | undefined;
  /** Skills available where the agents run: a bound skill outside them is a `skill_unresolved` warning. */
  readonly skillNames?: Iterable<string> | undefined;
}

/** The codes the loader can report: its own, the name-clash resolver's and core's. */
export type LoadRecipesCode = CodesOf<"recipes-loader" | "collision" | "core">;

/** What a recipe or contract loader returns. */
export interface LoadRecipesResult<T> {
  /** One winner per name, sorted by name. */
  readonly items: T[];
  readonly diagnostics: Diagnostic<LoadRecipesCode>[];
  readonly collisions: CollisionGroup<T>[];
}
