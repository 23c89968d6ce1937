import { sortDiagnostics } from "@skillshelf/core";
import type { ReadPass } from "@skillshelf/resources";
import { type CommandInput, flag, stringValue } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { formatDiagnostic, type PathStyle, painter } from "../format.js";
import { packageListing } from "../listings/packages.js";
import { promptListing } from "../listings/prompts.js";
import { agentListing, fleetListing } from "../listings/recipes.js";
import type { Listing, ListKind } from "../listings/rows.js";
import { skillListing } from "../listings/skills.js";
import { resourcesOf } from "../resources.js";

/** Each kind's listing, and its title when several are listed. */
const LISTINGS: Readonly<
  Record<
    ListKind,
    {
      readonly title: string;
      readonly list: (pass: ReadPass, all: boolean, style: PathStyle) => Listing;
    }
  >
> = {
  skills: { title: "Skills", list: skillListing },
  prompts: { title: "Prompt templates", list: promptListing },
  agents: { title: "Agent recipes", list: agentListing },
  fleets: { title: "Fleet contracts", list: fleetListing },
  packages: { title: "Installed packages", list: packageListing },
};

export function runList(input: CommandInput): number {
  const { io } = input;
  const kind = stringValue(input, "kind") ?? "skills";
  const kinds = kind === "all" ? (Object.keys(LISTINGS) as ListKind[]) : [kind as ListKind];
  const context = input.context();
  const all = flag(input, "all");
  // identities read every skill's body: keep them from the one read instead of reading again
  const pass = resourcesOf(context).read(context.environment.cwd, {
    bodies: all && kinds.includes("skills"),
  });
  const listings = kinds.map((key) => LISTINGS[key].list(pass, all, context.style));
  // a finding reaches several listings (a copy's, the snapshot's): print it once
  const diagnostics = sortDiagnostics([
    ...new Set([...pass.diagnostics, ...listings.flatMap((listing) => listing.diagnostics)]),
  ]);
  if (flag(input, "json")) {
    printJson(io, context, {
      ...Object.fromEntries(listings.map((listing) => [listing.key, listing.rows])),
      diagnostics: diagnostics.map(publicDiagnostic),
    });
    return 0;
  }
  const paint = painter(io.color);
  const sections = listings.map((listing) => listing.text(context.style, paint));
  io.stdout(
    listings.length === 1
      ? (sections[0] ?? "")
      : listings
          .map(
            (listing, index) => `${paint("bold", LISTINGS[listing.key].title)}\n${sections[index]}`,
          )
          .join("\n"),
  );
  for (const diagnostic of diagnostics)
    if (diagnostic.severity !== "info")
      io.stderr(formatDiagnostic(diagnostic, context.style, paint));
  return 0;
}
