import { sortDiagnostics } from "@skillshelf/core";
import { parseCommandArgs } from "../args.js";
import { commandContext, publicDiagnostic } from "../context.js";
import { formatDiagnostic, painter } from "../format.js";
import { type CliIo, UsageError } from "../io.js";
import { packageListing } from "../listings/packages.js";
import { promptListing } from "../listings/prompts.js";
import { agentListing, fleetListing } from "../listings/recipes.js";
import type { Listing } from "../listings/rows.js";
import { skillListing } from "../listings/skills.js";

export const LIST_USAGE = `Usage: skillshelf list [--kind skills|prompts|agents|fleets|packages|all] [--all] [--json] [--cwd DIR]

List the effective resources of a kind: for each name the copy in use, where it comes from, and
what it shadows. Other agents' folders are discovery-only: listed, never shown to a model.

Options:
  --kind KIND   skills (default), prompts, agents, fleets, packages (installed copies and their
                state), or all of them
  --all         also list the copies that lost a name clash
  --json        print {"version":1,"<kind>":[…],"diagnostics":[…]} ("all": one key per kind)
  --cwd DIR     the project folder (default: the current folder)
`;

type Kind = Listing["key"];
const KINDS: readonly Kind[] = ["skills", "prompts", "agents", "fleets", "packages"];

export function runList(args: readonly string[], io: CliIo): number {
  const { values } = parseCommandArgs(args, {
    kind: { type: "string" },
    all: { type: "boolean" },
    json: { type: "boolean" },
    cwd: { type: "string" },
  });
  const kinds = parseKind(values.kind ?? "skills");
  const { environment, style } = commandContext(values.cwd, io);
  const all = values.all === true;
  const skills = skillListing(environment, all);
  const listings = kinds.map((kind): Listing => {
    if (kind === "skills") return skills;
    if (kind === "prompts") return promptListing(environment, all);
    if (kind === "agents")
      return agentListing(
        environment,
        all,
        skills.skills.map((skill) => skill.name),
      );
    if (kind === "packages") return packageListing(environment, all);
    return fleetListing(environment, all);
  });
  const diagnostics = sortDiagnostics(listings.flatMap((listing) => listing.diagnostics));
  if (values.json === true) {
    const output = {
      version: 1,
      ...Object.fromEntries(listings.map((listing) => [listing.key, listing.rows])),
      diagnostics: diagnostics.map(publicDiagnostic),
    };
    io.stdout(`${JSON.stringify(output, null, 2)}\n`);
    return 0;
  }
  const paint = painter(io.color);
  const sections = listings.map((listing) => listing.text(style, paint));
  io.stdout(
    listings.length === 1
      ? (sections[0] ?? "")
      : listings
          .map((listing, index) => `${paint("bold", title(listing.key))}\n${sections[index]}`)
          .join("\n"),
  );
  for (const diagnostic of diagnostics) {
    if (diagnostic.severity !== "info") io.stderr(formatDiagnostic(diagnostic, style, paint));
  }
  return 0;
}

// --- internal ---

function parseKind(kind: string): readonly Kind[] {
  if (kind === "all") return KINDS;
  const plural = kind.endsWith("s") ? kind : `${kind}s`;
  const found = KINDS.find((candidate) => candidate === plural);
  if (found === undefined)
    throw new UsageError(
      `--kind ${kind} is not a kind; use skills, prompts, agents, fleets, packages or all`,
    );
  return [found];
}

function title(kind: Kind): string {
  return {
    skills: "Skills",
    prompts: "Prompt templates",
    agents: "Agent recipes",
    fleets: "Fleet contracts",
    packages: "Installed packages",
  }[kind];
}
