import type { PromptTemplate } from "@skillshelf/prompts-loader";
import type { ReadPass } from "@skillshelf/resources";
import { type BaseRow, type Column, type Listing, listedRows, renderListing } from "./rows.js";

/** A `list --json` prompt row. */
interface PromptRow extends BaseRow {
  readonly description: string;
  readonly unavailable: string | null;
  readonly argumentHint: string | null;
  readonly displayOnly: boolean;
}

const COLUMNS: readonly Column<PromptRow>[] = [
  { title: "SOURCE", cell: (row) => row.source },
  { title: "SCOPE", cell: (row) => row.scope },
  { title: "STATUS", cell: status, status: true },
  { title: "ARGUMENTS", cell: (row) => row.argumentHint ?? "" },
];

/** The effective prompt templates, each with whether it can run. */
export function promptListing(pass: ReadPass, all: boolean): Listing {
  const result = pass.load("prompt");
  const rows = listedRows(
    result.items,
    result.collisions,
    all,
    (template: PromptTemplate): PromptRow => ({
      name: template.name,
      description: template.description,
      path: template.path,
      scope: template.scope,
      source: template.source,
      trusted: template.trusted,
      unavailable: template.unavailable ?? null,
      argumentHint: template.argumentHint ?? null,
      displayOnly: template.displayOnly,
    }),
  );
  return {
    key: "prompts",
    rows,
    diagnostics: result.diagnostics,
    text: (style, paint) =>
      renderListing({
        rows,
        noun: "prompt template",
        nouns: "prompt templates",
        columns: COLUMNS,
        style,
        paint,
        summary: (effective) =>
          STATUSES.map(
            (label) => [label, effective.filter((row) => status(row) === label).length] as const,
          )
            .filter(([, count]) => count > 0)
            .map(([label, count]) => `${count} ${label}`)
            .join(", "),
      }),
  };
}

const STATUSES = ["ready", "display-only", "unavailable", "discovery-only"] as const;

function status(row: PromptRow): (typeof STATUSES)[number] {
  if (row.unavailable !== null) return "unavailable";
  if (!row.trusted) return "discovery-only";
  return row.displayOnly ? "display-only" : "ready";
}
