import { buildCatalogView, type CatalogFormat, type CatalogSkill } from "@skillshelf/catalog-view";
import { isModelVisible } from "@skillshelf/skills-loader";
import { type CommandInput, flag, integerValue, stringValue } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { formatDiagnostic, painter, safeBlock } from "../format.js";

export function runCatalog(input: CommandInput): number {
  const { io } = input;
  const context = input.context();
  const loaded = context.resources().read(context.environment.cwd).skills();
  const skills = loaded.items.filter(isModelVisible).map(
    (skill): CatalogSkill => ({
      name: skill.name,
      description: skill.description,
      source: skill.source,
      scope: skill.scope,
      path: skill.path,
      triggers: stringList(skill.frontmatter.triggers),
    }),
  );
  const view = buildCatalogView({
    skills,
    format: (stringValue(input, "format") ?? "text") as CatalogFormat,
    query: stringValue(input, "query"),
    budget: integerValue(input, "budget"),
    offset: integerValue(input, "offset"),
    limit: integerValue(input, "limit"),
    fit: flag(input, "shorten") ? "shorten" : "drop",
  });
  if (flag(input, "json")) {
    const { diagnostics, ...rest } = view;
    printJson(io, context, {
      ...rest,
      diagnostics: [...loaded.diagnostics, ...diagnostics].map(publicDiagnostic),
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

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string")
    : undefined;
}
