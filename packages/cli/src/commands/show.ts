import { type Code, filterLexical } from "@skillshelf/core";
import { isModelVisible, loadSkills, type Skill } from "@skillshelf/skills-loader";
import { parseCommandArgs } from "../args.js";
import { commandContext } from "../context.js";
import { displayPath, safeLine } from "../format.js";
import { type CliIo, UsageError } from "../io.js";

export const SHOW_USAGE = `Usage: skillshelf show <name> [--json] [--cwd DIR]

Show one skill: the copy in use, and every copy that competed for its name, best first, with the
rule that decided between each and the winner.

Options:
  --json     print {"version":1,"name":…,"candidates":[…]}
  --cwd DIR  the project folder (default: the current folder)

Exit status: 0 found, 1 no skill of that name, 2 usage error.
`;

/** Why a copy lost, in words. */
const REASONS: Readonly<Record<string, string>> = {
  trusted: "a trusted copy wins over an untrusted one",
  owned: "a copy Skillshelf owns wins over one in another agent's folder",
  precedence: "the winner's place has higher precedence",
  "agent-rank": "the winner's agent comes earlier in the agent table",
  path: "otherwise equal; the path that sorts first wins",
};

export function runShow(args: readonly string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(args, {
    json: { type: "boolean" },
    cwd: { type: "string" },
  });
  const [name, ...extra] = positionals;
  if (name === undefined || extra.length > 0)
    throw new UsageError("name exactly one skill to show");
  const { environment, style } = commandContext(values.cwd, io);
  const result = loadSkills(environment);
  const group = result.collisions.find((candidate) => candidate.name === name);
  const winner = group?.winner ?? result.items.find((skill) => skill.name === name);
  if (winner === undefined) {
    const similar = filterLexical(
      result.items,
      name,
      (skill) => `${skill.name.replaceAll("-", " ")} ${skill.description}`,
    ).items.slice(0, 5);
    const hint =
      similar.length === 0 ? "" : `; similar: ${similar.map((skill) => skill.name).join(", ")}`;
    const code: Code = "skill_unknown";
    io.stderr(`skillshelf: ${code}: no skill is named "${safeLine(name)}"${safeLine(hint)}\n`);
    return 1;
  }
  const candidates = [
    { skill: winner, reason: null as string | null },
    ...(group?.losers.map((loss) => ({ skill: loss.item, reason: loss.reason })) ?? []),
  ];
  if (values.json === true) {
    const json = candidates.map(({ skill, reason }) => ({
      ...describe(skill),
      reason,
      explanation: reason === null ? null : (REASONS[reason] ?? reason),
    }));
    io.stdout(
      `${JSON.stringify({ version: 1, name, description: winner.description, candidates: json }, null, 2)}\n`,
    );
    return 0;
  }
  io.stdout(`${safeLine(name)}: ${safeLine(winner.description)}\n\nCandidates, best first:\n`);
  candidates.forEach(({ skill, reason }, index) => {
    const facts = describe(skill);
    const verdict = reason === null ? "in use" : `lost: ${REASONS[reason] ?? reason}`;
    io.stdout(
      `  ${index + 1}. ${displayPath(skill.path, style)}\n     ${safeLine(facts.source)}/${facts.scope}, precedence ${facts.precedence}, ${visibility(skill)}; ${verdict}\n`,
    );
  });
  return 0;
}

// --- internal ---

function describe(skill: Skill) {
  return {
    path: skill.path,
    source: skill.source,
    scope: skill.scope,
    precedence: skill.precedence,
    trusted: skill.trusted,
    modelVisible: isModelVisible(skill),
  };
}

function visibility(skill: Skill): string {
  if (isModelVisible(skill)) return "visible to the model";
  return skill.trusted ? "operator-only" : "discovery-only";
}
