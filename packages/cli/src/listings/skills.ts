import type { ReadPass } from "@skillshelf/resources";
import { isModelVisible } from "@skillshelf/skills-loader";
import { type BaseRow, type Column, type Listing, listedRows, renderListing } from "./rows.js";

/** A `list --json` skill row: `{name, description, path, scope, source, trusted, modelVisible, hash, shadows}`. */
interface SkillRow extends BaseRow {
  readonly description: string;
  readonly modelVisible: boolean;
  readonly hash: string;
}

const COLUMNS: readonly Column<SkillRow>[] = [
  { title: "SOURCE", cell: (row) => row.source },
  { title: "SCOPE", cell: (row) => row.scope },
  {
    title: "MODEL",
    cell: (row) =>
      row.modelVisible ? "visible" : row.trusted ? "operator-only" : "discovery-only",
    status: true,
  },
];

/** The effective skills: the copy in use for each name, and whether a model can see it. */
export function skillListing(pass: ReadPass, all: boolean): Listing {
  const result = pass.skills();
  const rows = listedRows(
    result.items,
    result.collisions,
    all,
    (skill): SkillRow => ({
      name: skill.name,
      description: skill.description,
      path: skill.path,
      scope: skill.scope,
      source: skill.source,
      trusted: skill.trusted,
      modelVisible: isModelVisible(skill),
      hash: skill.hash,
    }),
  );
  return {
    key: "skills",
    rows,
    diagnostics: result.diagnostics,
    text: (style, paint) =>
      renderListing({
        rows,
        noun: "skill",
        nouns: "skills",
        columns: COLUMNS,
        style,
        paint,
        summary: (effective) => {
          const visible = effective.filter((row) => row.modelVisible).length;
          const discoveryOnly = effective.filter((row) => !row.trusted).length;
          return `${visible} visible to the model, ${discoveryOnly} discovery-only, ${effective.length - visible - discoveryOnly} operator-only`;
        },
      }),
  };
}
