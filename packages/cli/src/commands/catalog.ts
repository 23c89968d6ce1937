import {
  buildCatalogView,
  type CatalogFormat,
  type CatalogOffer,
  type CatalogPackage,
  type CatalogSkill,
} from "@skillshelf/catalog-view";
import type { Diagnostic, Environment } from "@skillshelf/core";
import { type InventoryCopy, inspectCopy, readInventory } from "@skillshelf/inventory";
import { explainAgents, isModelVisible } from "@skillshelf/skills-loader";
import { originText } from "../_origin.js";
import type { CommandInput } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { formatDiagnostic, painter, safeBlock } from "../format.js";
import { resourcesOf } from "../resources.js";
import { UsageError } from "../usage-error.js";
import { skillUses, usesOf } from "./_skill-uses.js";

export function runCatalog(
  input: CommandInput<{
    readonly agent: string | undefined;
    readonly installable: boolean;
    readonly query: string | undefined;
    readonly budget: number | undefined;
    readonly offset: number | undefined;
    readonly limit: number | undefined;
    readonly shorten: boolean;
    readonly format: CatalogFormat | undefined;
    readonly rank: "usage" | undefined;
    readonly json: boolean;
  }>,
): number {
  const { io } = input;
  const context = input.context();
  const agent = input.values.agent;
  const {
    skills,
    diagnostics: found,
    format,
    budget,
  } = agent === undefined ? ourListing(input) : agentListing(input, agent);
  const installable =
    input.values.installable && agent === undefined ? installableBlocks(input) : {};
  const view = buildCatalogView({
    skills,
    ...installable,
    format,
    query: input.values.query,
    budget: input.values.budget ?? budget,
    offset: input.values.offset,
    limit: input.values.limit,
    // an agent with a budget shortens descriptions before it drops skills
    fit: input.values.shorten || budget !== undefined ? "shorten" : "drop",
    // our own listing speaks our own protocol: the model suggests `/skill <name>`, the operator runs it
    wording: {
      host: "Skillshelf",
      activation: "operator",
      installHint: "/skill <name> offers to install",
    },
    hidden: hiddenCount(found),
    ...(input.values.rank === "usage"
      ? { relevance: usageRelevance(context.environment, skills) }
      : {}),
  });
  if (input.values.json) {
    const { diagnostics, ...rest } = view;
    printJson(io, context, {
      ...rest,
      diagnostics: [...found, ...diagnostics].map(publicDiagnostic),
    });
  } else {
    if (view.text !== "") io.stdout(`${safeBlock(view.text)}\n`);
    const paint = painter(io.color);
    for (const diagnostic of view.diagnostics)
      if (diagnostic.severity !== "info")
        io.stderr(formatDiagnostic(diagnostic, context.style, paint));
  }
  // a budget too small for any listing is a failure a script must notice
  return view.fits ? 0 : 1;
}

// --- internal ---

/** Each skill's count of uses (served and invoked) as relevance, most used first, never used last. */
function usageRelevance(
  environment: Environment,
  skills: readonly CatalogSkill[],
): {
  readonly scores: Readonly<Record<string, number>>;
  readonly source: string;
} {
  const usage = skillUses(environment, "");
  if (usage === undefined)
    throw new UsageError(
      "usage_invalid_value",
      "--rank usage needs usage counted: skillshelf usage enable (local only)",
    );
  const uses = new Map(usage.skills.map((skill) => [skill.skill, usesOf(skill)]));
  return {
    scores: Object.fromEntries(skills.map((skill) => [skill.name, uses.get(skill.name) ?? 0])),
    source: "usage",
  };
}

/** How many skills the loader kept from the model for trust (its `untrusted_hidden` count). */
function hiddenCount(diagnostics: readonly Diagnostic[]): number {
  const count = diagnostics.find((one) => one.code === "untrusted_hidden")?.details?.count;
  return typeof count === "number" ? count : 0;
}

interface Listed {
  readonly skills: CatalogSkill[];
  readonly diagnostics: readonly Diagnostic[];
  readonly format: CatalogFormat;
  readonly budget?: number | undefined;
}

/** The skills Skillshelf gives a model here. */
function ourListing(input: CommandInput<{ readonly format: CatalogFormat | undefined }>): Listed {
  const context = input.context();
  const loaded = resourcesOf(context).read(context.environment.cwd).load("skill");
  return {
    skills: loaded.items.filter(isModelVisible).map(
      (skill): CatalogSkill => ({
        name: skill.name,
        description: skill.description,
        source: skill.source,
        scope: skill.scope,
        path: skill.path,
        triggers: stringList(skill.frontmatter.triggers),
      }),
    ),
    diagnostics: loaded.diagnostics,
    format: input.values.format ?? "text",
  };
}

/** The skills `agent` would give its model here, in its format and within its budget. */
function agentListing(
  input: CommandInput<{ readonly format: CatalogFormat | undefined }>,
  agent: string,
): Listed {
  const [explained] = explainAgents({ ...input.context().environment, agent });
  const hidden = new Set(explained?.hidden.map((entry) => entry.name));
  return {
    skills: (explained?.loaded ?? [])
      .filter((skill) => !hidden.has(skill.name))
      .map((skill) => ({
        name: skill.name,
        description: skill.description,
        source: agent,
        scope: explained?.roots[skill.root]?.scope ?? "user",
        path: skill.path,
      })),
    diagnostics: [],
    format: input.values.format ?? explained?.format ?? "xml",
    budget: explained?.budget?.rule.chars,
  };
}

/**
 * The blocks of what could be given once installed or switched on: every installed package that
 * provides skills with its state, and the packages the indexes offer that nothing installed.
 */
function installableBlocks(input: CommandInput<unknown>): {
  packages: CatalogPackage[];
  marketplace: CatalogOffer[];
} {
  const { environment, style } = input.context();
  const inventory = readInventory({ environment });
  const skillsOf = (copy: InventoryCopy): string[] => {
    const owned = inventory.resources
      .filter(
        (resource) =>
          resource.kind === "skill" &&
          resource.owner?.id === copy.id &&
          resource.owner.scope === copy.scope,
      )
      .map((resource) => resource.name);
    // a copy the loaders do not read (disabled, shadowed, damaged) is read on its own
    if (owned.length > 0 || copy.loadable) return owned;
    const inspected = inspectCopy({ environment, id: copy.id, scope: copy.scope });
    return (inspected?.resources ?? [])
      .filter((resource) => resource.kind === "skill")
      .map((resource) => resource.name);
  };
  const packages = inventory.copies.flatMap((copy): CatalogPackage[] => {
    const skills = skillsOf(copy);
    if (skills.length === 0) return [];
    return [
      {
        name: copy.id,
        skills,
        scope: copy.scope,
        origin: originText(copy.origin, style),
        state:
          copy.loadable && copy.trust === "foreign"
            ? "requires trust"
            : copy.loadable
              ? "ready"
              : copy.state,
        path: copy.dir ?? copy.id,
      },
    ];
  });
  const marketplace = inventory.packages
    .filter(
      (row) =>
        row.listedBy === "index" &&
        row.copies.length === 0 &&
        (row.kind === "skill" ||
          row.kind === "plugin" ||
          (row.provides ?? []).some((provided) => provided.kind === "skill")),
    )
    .map(
      (row): CatalogOffer => ({
        name: row.name,
        description: row.description,
        sourceUrl: row.sourceUrl ?? row.ref,
      }),
    );
  return { packages, marketplace };
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string")
    : undefined;
}
