import type { Environment, PackageKind, ResourceKind } from "@skillshelf/core";
import { type Inventory, readInventory } from "@skillshelf/inventory";
import { readAdvisories, readKeptOrg } from "@skillshelf/policy";
import { revokedCopies } from "@skillshelf/resources";
import { type PackageSnapshot, readPackageSnapshot } from "@skillshelf/store";
import type { CommandInput } from "../command.js";
import { printJson } from "../context.js";
import { displayPath, formatTable, type PathStyle, painter } from "../format.js";

/**
 * The inventory: packages the indexes offer, copies installed in both scopes, and the
 * resources the loaders admit from each, body-free and bounded; `--kind`, `--scope` and a ref
 * (package ref, resource key or name) narrow it.
 */
export function runInventory(
  input: CommandInput<{
    readonly kind: PackageKind | ResourceKind | undefined;
    readonly scope: "user" | "project" | undefined;
    readonly json: boolean;
  }>,
): number {
  const { io } = input;
  const context = input.context();
  const kind = input.values.kind;
  const scope = input.values.scope;
  const [ref] = input.positionals;
  const snapshot = readPackageSnapshot(context.environment);
  const inventory = readInventory({
    environment: context.environment,
    snapshot,
    filter: {
      ...(kind === undefined ? {} : { kinds: [kind] }),
      ...(ref === undefined ? {} : { ref }),
    },
  });
  const shown = scope === undefined ? inventory : narrowed(inventory, scope);
  if (input.values.json) {
    printJson(io, context, { inventory: shown, ...fleetFacts(context.environment, snapshot) });
    return 0;
  }
  io.stdout(inventoryText(shown, context.style, painter(io.color)));
  return 0;
}

// --- internal ---

/**
 * What a company's own tools collect beside the inventory (docs/fleet.md): the org channel in
 * force, and the advisory feeds followed with every installed copy they revoke.
 */
function fleetFacts(environment: Environment, snapshot: PackageSnapshot) {
  const { kept } = readKeptOrg(environment);
  const { feeds } = readAdvisories(environment);
  return {
    org:
      kept === undefined
        ? null
        : {
            name: kept.org.name,
            source: kept.source,
            digest: kept.digest,
            fetchedAt: kept.fetchedAt,
          },
    advisories: {
      feeds: feeds.map((feed) => ({
        name: feed.name,
        source: feed.source,
        fetchedAt: feed.fetchedAt,
        advisories: feed.feed.advisories.length,
      })),
      revoked: revokedCopies(snapshot, feeds).map(({ copy, advisory, feed }) => ({
        id: copy.id,
        scope: copy.scope,
        digest: copy.record?.contentDigest,
        advisory: advisory.id,
        feed,
      })),
    },
  };
}

function narrowed(inventory: Inventory, scope: string): Inventory {
  return {
    ...inventory,
    copies: inventory.copies.filter((copy) => copy.scope === scope),
    resources: inventory.resources.filter(
      (resource) => resource.source.scope === scope || resource.owner?.scope === scope,
    ),
  };
}

function inventoryText(
  inventory: Inventory,
  style: PathStyle,
  paint: ReturnType<typeof painter>,
): string {
  const capped = (what: keyof Inventory["truncated"]) =>
    inventory.truncated[what] ? " (capped: more exist, narrow with --kind or --scope)" : "";
  const sections = [
    `Offered by the indexes: ${inventory.packages.length}${capped("packages")}`,
    formatTable(
      ["REF", "VERSION", "ORIGIN", "INSTALLED"],
      inventory.packages.map((row) => [
        row.ref,
        row.version ?? "",
        row.origin.kind,
        row.copies.map((copy) => `${copy.scope}:${copy.state}`).join(" ") || "-",
      ]),
      paint,
    ),
    `Installed copies: ${inventory.copies.length}${capped("copies")}`,
    formatTable(
      ["REF", "VERSION", "SCOPE", "STATE", "ORIGIN", "PATH"],
      inventory.copies.map((copy) => [
        copy.ref,
        copy.version ?? "",
        copy.scope,
        copy.state,
        copy.origin.kind,
        copy.dir === undefined ? "" : displayPath(copy.dir, style),
      ]),
      paint,
    ),
    `Resources the loaders admit: ${inventory.resources.length}${capped("resources")}`,
    formatTable(
      ["KIND", "NAME", "FROM", "AVAILABILITY"],
      inventory.resources.map((resource) => [
        resource.kind,
        resource.name,
        resource.owner === undefined ? resource.source.class : `package:${resource.owner.id}`,
        resource.availability,
      ]),
      paint,
    ),
  ];
  return `${sections.join("\n")}\n`;
}
