import type { CollisionGroup } from "@skillshelf/collision";
import type {
  Diagnostic,
  EnvironmentInput,
  ResourceRoot,
  ResourceSource,
  Scope,
} from "@skillshelf/core";
import type { FleetContractFields } from "./fleet.js";
import type { FleetPrerequisite } from "./prerequisites.js";
import type { AgentRecipeFields } from "./recipe.js";

/** Where a recipe or contract was found. */
export interface ResourcePlace {
  /** The file name without `.md`. */
  readonly id: string;
  readonly path: string;
  readonly realPath: string;
  readonly scope: Scope;
  readonly source: ResourceSource;
  readonly origin: string;
  readonly precedence: number;
  readonly trusted: boolean;
}

/** A loaded agent recipe. */
export interface AgentRecipe extends AgentRecipeFields, ResourcePlace {}

/** A loaded fleet contract, with what it needs that is not defined beside it. */
export interface FleetContract extends FleetContractFields, ResourcePlace {
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

/** What a recipe or contract loader returns. */
export interface LoadRecipesResult<T> {
  /** One winner per name, sorted by name. */
  readonly items: T[];
  readonly diagnostics: Diagnostic[];
  readonly collisions: CollisionGroup<T>[];
}
