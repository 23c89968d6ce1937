export type { ResourceRoot, ResourceTrust } from "@skillshelf/core";
export { packageRoot } from "@skillshelf/core";
export type { FleetContractFields, FleetStep } from "./fleet.js";
export { parseFleetContract, SUPPORTED_FLEET_VERSIONS, templateVariables } from "./fleet.js";
export { loadAgentRecipes, loadFleetContracts, MAX_RECIPE_BYTES } from "./load.js";
export type { FleetPrerequisite } from "./prerequisites.js";
export { fleetPrerequisites } from "./prerequisites.js";
export type { AgentRecipeFields } from "./recipe.js";
export { COMPATIBLE_AGENT_KEYS, parseAgentRecipe } from "./recipe.js";
export { defaultFleetRoots, defaultRecipeRoots } from "./roots.js";
export type {
  AgentRecipe,
  FleetContract,
  LoadRecipesCode,
  LoadRecipesInput,
  LoadRecipesResult,
  RecipePlace,
} from "./types.js";
