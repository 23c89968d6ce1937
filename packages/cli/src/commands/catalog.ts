import { buildCatalogView, type CatalogFormat, type CatalogSkill } from "@skillshelf/catalog-view";
import { isModelVisible, loadSkills } from "@skillshelf/skills-loader";
import { parseCommandArgs } from "../args.js";
import { commandContext, publicDiagnostic } from "../context.js";
import { safeBlock } from "../format.js";
import { type CliIo, UsageError } from "../io.js";

export const CATALOG_USAGE = `Usage: skillshelf catalog [--query Q] [--budget BYTES] [--offset N] [--limit N] [--format text|xml|markdown] [--json] [--cwd DIR]

Print the skill listing a model would be given here: the skills it may use, narrowed by a query,
paged, and fitted to a byte budget.

Options:
  --query Q       keep the skills matching every word of Q (or, failing that, any word)
  --budget BYTES  fit the listing into this many UTF-8 bytes
  --offset N      start at the Nth matching skill (default 0)
  --limit N       show at most N skills (1–200)
  --format F      text (default), xml (the Agent Skills <available_skills> form) or markdown
  --json          print the whole view: {"version":1,"text":…,"rows":[…],"nextOffset":…,…}
  --cwd DIR       the project folder (default: the current folder)
`;

const FORMATS: readonly CatalogFormat[] = ["text", "xml", "markdown"];

export function runCatalog(args: readonly string[], io: CliIo): number {
  const { values } = parseCommandArgs(args, {
    query: { type: "string" },
    budget: { type: "string" },
    offset: { type: "string" },
    limit: { type: "string" },
    format: { type: "string" },
    json: { type: "boolean" },
    cwd: { type: "string" },
  });
  const format = (values.format ?? "text") as CatalogFormat;
  if (!FORMATS.includes(format))
    throw new UsageError(`--format ${values.format} is not a format; use text, xml or markdown`);
  const { environment } = commandContext(values.cwd, io);
  const loaded = loadSkills(environment);
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
    format,
    query: values.query,
    budget: integer(values.budget, "--budget", 0),
    offset: integer(values.offset, "--offset", 0),
    limit: integer(values.limit, "--limit", 1),
  });
  if (values.json === true) {
    const { diagnostics, ...rest } = view;
    io.stdout(
      `${JSON.stringify({ version: 1, ...rest, diagnostics: [...loaded.diagnostics, ...diagnostics].map(publicDiagnostic) }, null, 2)}\n`,
    );
  } else {
    io.stdout(`${safeBlock(view.text)}\n`);
  }
  return 0;
}

// --- internal ---

function integer(value: string | undefined, option: string, minimum: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < minimum)
    throw new UsageError(`${option} needs a whole number of at least ${minimum}, not "${value}"`);
  return number;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string")
    : undefined;
}
