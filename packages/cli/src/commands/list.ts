import { isModelVisible, loadSkills, type Skill } from "@skillshelf/skills-loader";
import { parseCommandArgs } from "../args.js";
import { commandContext, publicDiagnostic } from "../context.js";
import {
  displayPath,
  formatDiagnostic,
  formatTable,
  type PathStyle,
  painter,
  plural,
} from "../format.js";
import { type CliIo, UsageError } from "../io.js";

export const LIST_USAGE = `Usage: skillshelf list [--kind skills] [--all] [--json] [--cwd DIR]

List the effective skills: for each name the copy in use, where it comes from, and whether a
model can see it. Other agents' folders are discovery-only: listed, never shown to a model.

Options:
  --kind KIND   what to list; only "skills" for now (default)
  --all         also list the copies that lost a name clash
  --json        print {"version":1,"skills":[…],"diagnostics":[…]}
  --cwd DIR     the project folder (default: the current folder)
`;

/** One row of `list --json`. */
export interface SkillRow {
  readonly name: string;
  readonly description: string;
  readonly path: string;
  readonly scope: string;
  readonly source: string;
  readonly trusted: boolean;
  readonly modelVisible: boolean;
  readonly hash: string;
  readonly shadows: readonly string[];
  /** Only with `--all`, on a copy that lost: the path of the copy in use. */
  readonly shadowedBy?: string;
}

export function runList(args: readonly string[], io: CliIo): number {
  const { values } = parseCommandArgs(args, {
    kind: { type: "string" },
    all: { type: "boolean" },
    json: { type: "boolean" },
    cwd: { type: "string" },
  });
  const kind = values.kind ?? "skills";
  if (kind !== "skills" && kind !== "skill")
    throw new UsageError(`--kind ${kind} is not supported yet; use --kind skills`);
  const { environment, style } = commandContext(values.cwd, io);
  const result = loadSkills(environment);
  const rows = skillRows(result.items, result.collisions, values.all === true);
  if (values.json === true) {
    io.stdout(
      `${JSON.stringify({ version: 1, skills: rows, diagnostics: result.diagnostics.map(publicDiagnostic) }, null, 2)}\n`,
    );
    return 0;
  }
  const paint = painter(io.color);
  io.stdout(renderText(rows, style, paint));
  for (const diagnostic of result.diagnostics) {
    if (diagnostic.severity !== "info") io.stderr(formatDiagnostic(diagnostic, style, paint));
  }
  return 0;
}

// --- internal ---

type Collisions = ReturnType<typeof loadSkills>["collisions"];

function skillRows(items: readonly Skill[], collisions: Collisions, all: boolean): SkillRow[] {
  const lostBy = new Map(
    collisions.map((group) => [group.winner, group.losers.map((loss) => loss.item)]),
  );
  const rows: SkillRow[] = [];
  for (const skill of items) {
    const losers = lostBy.get(skill) ?? [];
    rows.push(
      row(
        skill,
        losers.map((loser) => loser.path),
      ),
    );
    if (all) for (const loser of losers) rows.push({ ...row(loser, []), shadowedBy: skill.path });
  }
  return rows;
}

function row(skill: Skill, shadows: string[]): SkillRow {
  return {
    name: skill.name,
    description: skill.description,
    path: skill.path,
    scope: skill.scope,
    source: skill.source,
    trusted: skill.trusted,
    modelVisible: isModelVisible(skill),
    hash: skill.hash,
    shadows,
  };
}

function renderText(
  rows: readonly SkillRow[],
  style: PathStyle,
  paint: ReturnType<typeof painter>,
): string {
  const effective = rows.filter((skill) => skill.shadowedBy === undefined);
  if (effective.length === 0) return "No skills found.\n";
  const table = formatTable(
    ["NAME", "SOURCE", "SCOPE", "MODEL", "PATH"],
    rows.map((skill) => [
      skill.shadowedBy === undefined ? skill.name : `  ${skill.name}`,
      skill.source,
      skill.scope,
      skill.shadowedBy !== undefined ? "shadowed" : modelColumn(skill),
      displayPath(skill.path, style) +
        (skill.shadows.length > 0 ? ` (shadows ${skill.shadows.length})` : ""),
    ]),
    paint,
  );
  const visible = effective.filter((skill) => skill.modelVisible).length;
  const discoveryOnly = effective.filter((skill) => !skill.trusted).length;
  const operatorOnly = effective.length - visible - discoveryOnly;
  const shadowed = effective.reduce((sum, skill) => sum + skill.shadows.length, 0);
  const parts = [
    `${visible} visible to the model`,
    `${discoveryOnly} discovery-only`,
    `${operatorOnly} operator-only`,
  ];
  const shadowNote =
    shadowed === 0
      ? ""
      : ` ${plural(shadowed, "shadowed copy", "shadowed copies")}${rows.length > effective.length ? "" : " (--all lists them)"}.`;
  return `${table}\n${plural(effective.length, "skill")}: ${parts.join(", ")}.${shadowNote}\n`;
}

function modelColumn(skill: SkillRow): string {
  if (skill.modelVisible) return "visible";
  return skill.trusted ? "operator-only" : "discovery-only";
}
