import type { AgentRecipe, FleetContract, FleetPrerequisite } from "@skillshelf/recipes-loader";
import type { ReadPass } from "@skillshelf/resources";
import {
  type BaseRow,
  type Column,
  type Listing,
  listedRows,
  renderListing,
  trustColumn,
} from "./rows.js";

/** A `list --json` agent row. */
interface AgentRow extends BaseRow {
  readonly description: string;
  /** Why it cannot be used (a package reference that names nothing), or `null`. */
  readonly unavailable: string | null;
  readonly tools: readonly string[] | null;
  readonly model: string | null;
  readonly skills: readonly string[];
}

/** A `list --json` fleet row. */
interface FleetRow extends BaseRow {
  readonly steps: readonly string[];
  readonly variables: readonly string[];
  readonly prerequisites: readonly FleetPrerequisite[];
}

const AGENT_COLUMNS: readonly Column<AgentRow>[] = [
  { title: "SOURCE", cell: (row) => row.source },
  { title: "SCOPE", cell: (row) => row.scope },
  {
    title: "TRUST",
    cell: (row) => (row.unavailable !== null ? "unavailable" : trustColumn(row)),
    status: true,
  },
  { title: "TOOLS", cell: (row) => (row.tools === null ? "default" : row.tools.join(", ")) },
];

const FLEET_COLUMNS: readonly Column<FleetRow>[] = [
  { title: "SCOPE", cell: (row) => row.scope },
  { title: "STEPS", cell: (row) => String(row.steps.length), status: true },
  {
    title: "NEEDS",
    cell: (row) => row.prerequisites.map((need) => `${need.type}:${need.identifier}`).join(", "),
  },
];

/** The effective agent recipes; a bound skill the pass does not offer is a warning. */
export function agentListing(pass: ReadPass, all: boolean): Listing {
  const result = pass.load("agent");
  const rows = listedRows(
    result.items,
    result.collisions,
    all,
    (recipe: AgentRecipe): AgentRow => ({
      name: recipe.name,
      description: recipe.description,
      path: recipe.path,
      scope: recipe.scope,
      source: recipe.source,
      trusted: recipe.trusted,
      unavailable: recipe.unavailable ?? null,
      tools: recipe.tools ?? null,
      model: recipe.model ?? null,
      skills: recipe.skills,
    }),
  );
  return {
    key: "agents",
    rows,
    diagnostics: result.diagnostics,
    text: (style, paint) =>
      renderListing({
        rows,
        noun: "agent recipe",
        nouns: "agent recipes",
        columns: AGENT_COLUMNS,
        style,
        paint,
        summary: (effective) => {
          const unavailable = effective.filter((row) => row.unavailable !== null).length;
          return `${effective.filter((row) => row.trusted).length} trusted, ${effective.filter((row) => !row.trusted).length} discovery-only${unavailable === 0 ? "" : `, ${unavailable} unavailable`}`;
        },
      }),
  };
}

/** The effective fleet contracts, with their variables and prerequisites. */
export function fleetListing(pass: ReadPass, all: boolean): Listing {
  const result = pass.load("fleet");
  const rows = listedRows(
    result.items,
    result.collisions,
    all,
    (fleet: FleetContract): FleetRow => ({
      name: fleet.name,
      description: fleet.description ?? null,
      path: fleet.path,
      scope: fleet.scope,
      source: fleet.source,
      trusted: fleet.trusted,
      steps: fleet.steps.map((step) => step.id),
      variables: fleet.variables,
      prerequisites: fleet.prerequisites,
    }),
  );
  return {
    key: "fleets",
    rows,
    diagnostics: result.diagnostics,
    text: (style, paint) =>
      renderListing({
        rows,
        noun: "fleet contract",
        nouns: "fleet contracts",
        columns: FLEET_COLUMNS,
        style,
        paint,
        summary: (effective) => {
          const needing = effective.filter((row) => row.prerequisites.length > 0).length;
          return needing === 0 ? "" : `${needing} with prerequisites to install`;
        },
      }),
  };
}
