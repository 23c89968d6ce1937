import { buildCatalogView, type CatalogFormat, type CatalogSkill } from "@skillshelf/catalog-view";
import type { Diagnostic } from "@skillshelf/core";
import { explainAgents, isModelVisible } from "@skillshelf/skills-loader";
import { type CommandInput, flag, integerValue, stringValue } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { formatDiagnostic, painter, safeBlock } from "../format.js";
import { resourcesOf } from "../resources.js";

export function runCatalog(input: CommandInput): number {
  const { io } = input;
  const context = input.context();
  const agent = stringValue(input, "agent");
  const {
    skills,
    diagnostics: found,
    format,
    budget,
  } = agent === undefined ? ourListing(input) : agentListing(input, agent);
  const view = buildCatalogView({
    skills,
    format,
    query: stringValue(input, "query"),
    budget: integerValue(input, "budget") ?? budget,
    offset: integerValue(input, "offset"),
    limit: integerValue(input, "limit"),
    // an agent with a budget shortens descriptions before it drops skills
    fit: flag(input, "shorten") || budget !== undefined ? "shorten" : "drop",
  });
  if (flag(input, "json")) {
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

interface Listed {
  readonly skills: CatalogSkill[];
  readonly diagnostics: readonly Diagnostic[];
  readonly format: CatalogFormat;
  readonly budget?: number | undefined;
}

/** The skills Skillshelf gives a model here. */
function ourListing(input: CommandInput): Listed {
  const context = input.context();
  const loaded = resourcesOf(context).read(context.environment.cwd).skills();
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
    format: (stringValue(input, "format") ?? "text") as CatalogFormat,
  };
}

/** The skills `agent` would give its model here, in its format and within its budget. */
function agentListing(input: CommandInput, agent: string): Listed {
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
    format: (stringValue(input, "format") ?? explained?.format ?? "xml") as CatalogFormat,
    budget: explained?.budget?.rule.chars,
  };
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string")
    : undefined;
}
