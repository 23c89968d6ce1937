import {
  type Diagnostic,
  folderKind,
  RESOURCE_FOLDERS,
  type ResourceFolder,
  resourceFolder,
  sortDiagnostics,
} from "@skillshelf/core";
import { KINDS, type ReadPass } from "@skillshelf/resources";
import { type KeptContents, keptSkills } from "../_skill-cache.js";
import type { CommandInput } from "../command.js";
import { type CommandContext, printJson, publicDiagnostic } from "../context.js";
import { formatDiagnostic, type PathStyle, painter } from "../format.js";
import type { CliIo } from "../io.js";
import { promptListing } from "../listings/prompts.js";
import { agentListing, fleetListing } from "../listings/recipes.js";
import { type Listing, type ListKind, plainListing } from "../listings/rows.js";
import { skillListing } from "../listings/skills.js";
import { resourcesOf } from "../resources.js";

type List = (pass: ReadPass, all: boolean, style: PathStyle, kept?: KeptContents) => Listing;

/** The kinds with a listing of their own; any other lists the columns every kind has. */
const LISTINGS: { readonly [F in ResourceFolder]?: List } = {
  skills: skillListing,
  prompts: promptListing,
  agents: agentListing,
  fleets: fleetListing,
};

/** `list`'s kinds in order: each resource kind, then installed packages. */
const LIST_KINDS: readonly ListKind[] = [...RESOURCE_FOLDERS, "packages"];

function titleOf(key: ListKind): string {
  const kind = folderKind(key);
  if (kind === undefined) return "Installed packages";
  const many = KINDS[kind].nouns.many;
  return `${many.charAt(0).toUpperCase()}${many.slice(1)}`;
}

async function listOf(key: ListKind): Promise<List> {
  const kind = folderKind(key);
  // loaded when asked for: it brings the inventory and every source kind, which a listing of
  // skills has no need of
  if (kind === undefined) return (await import("../listings/packages.js")).packageListing;
  return LISTINGS[resourceFolder(kind)] ?? ((pass, all) => plainListing(pass, kind, all));
}

export async function runList(
  input: CommandInput<{
    readonly kind: ListKind | "all" | undefined;
    readonly all: boolean;
    readonly json: boolean;
  }>,
): Promise<number> {
  const { io } = input;
  const kind = input.values.kind ?? "skills";
  const kinds = kind === "all" ? LIST_KINDS : LIST_KINDS.filter((known) => known === kind);
  const context = input.context();
  const all = input.values.all;
  const kept = keptSkills(context, io);
  // identities read every skill's body: with no parses kept, keep the bodies from one whole read
  // of each file; with them, the frontmatter is what was kept and each body is read once, alone
  const parsesKept = (kept?.cache.stats().entries ?? 0) > 0;
  const pass = resourcesOf(context, kept?.cache).read(context.environment.cwd, {
    bodies: all && kinds.includes("skills") && !parsesKept,
  });
  const listings = [];
  for (const key of kinds)
    listings.push((await listOf(key))(pass, all, context.style, kept?.contents));
  // a finding reaches several listings (a copy's, the snapshot's): print it once
  const diagnostics = sortDiagnostics([
    ...new Set([...pass.diagnostics, ...listings.flatMap((listing) => listing.diagnostics)]),
  ]);
  if (input.values.json)
    printJson(io, context, {
      ...Object.fromEntries(listings.map((listing) => [listing.key, listing.rows])),
      diagnostics: diagnostics.map(publicDiagnostic),
    });
  else printListings(io, context, listings, diagnostics);
  // once the listing is out: what this run parsed, for the next
  kept?.save();
  return 0;
}

function printListings(
  io: CliIo,
  context: CommandContext,
  listings: readonly Listing[],
  diagnostics: readonly Diagnostic[],
): void {
  const paint = painter(io.color);
  const sections = listings.map((listing) => listing.text(context.style, paint));
  io.stdout(
    listings.length === 1
      ? (sections[0] ?? "")
      : listings
          .map((listing, index) => `${paint("bold", titleOf(listing.key))}\n${sections[index]}`)
          .join("\n"),
  );
  for (const diagnostic of diagnostics)
    if (diagnostic.severity !== "info")
      io.stderr(formatDiagnostic(diagnostic, context.style, paint));
}
