import type { CollisionGroup } from "@skillshelf/collision";
import { folderKind, type ResourceFolder, type ResourcePlace } from "@skillshelf/core";
import { isModelVisible } from "@skillshelf/skills-loader";
import type { CommandInput } from "../command.js";
import { printJson, publicDiagnostic } from "../context.js";
import { displayPath, formatDiagnostic, type PathStyle, painter, safeLine } from "../format.js";
import { locationLine, type SkillIdentity, skillIdentities } from "../listings/identity.js";
import { resourcesOf } from "../resources.js";
import { unknownResource } from "./_unknown.js";

/** Why a copy lost, in words. */
const REASONS: Readonly<Record<string, string>> = {
  trusted: "a trusted copy wins over an untrusted one",
  owned: "a copy Skillshelf owns wins over one in another agent's folder",
  precedence: "the winner's place has higher precedence",
  "agent-rank": "the winner's agent comes earlier in the agent table",
  path: "otherwise equal; the path that sorts first wins",
};

/** A loaded resource of any kind, as far as `show` needs it. */
type Shown = ResourcePlace & {
  readonly name: string;
  readonly description?: string | undefined;
  readonly disableModelInvocation?: boolean;
};

export function runShow(
  input: CommandInput<{ readonly kind: ResourceFolder | undefined; readonly json: boolean }>,
): number {
  const { io } = input;
  const [name = ""] = input.positionals;
  const folder = input.values.kind ?? "skills";
  const kind = folderKind(folder) ?? "skill";
  const context = input.context();
  const pass = resourcesOf(context).read(context.environment.cwd);
  const loaded: { items: Shown[]; collisions: CollisionGroup<Shown>[] } = pass.load(kind);
  const group = loaded.collisions.find((candidate) => candidate.name === name);
  const winner = group?.winner ?? loaded.items.find((item) => item.name === name);
  if (winner === undefined) {
    const unknown = unknownResource(kind, name, loaded.items, `no ${kind} is named "${name}"`);
    if (input.values.json)
      printJson(io, context, {
        kind,
        name,
        candidates: [],
        diagnostics: [publicDiagnostic(unknown)],
      });
    else
      io.stderr(
        `skillshelf: ${formatDiagnostic(unknown, context.style, painter(io.color)).replace(/^error /, "")}`,
      );
    return 1;
  }
  const candidates = [
    { item: winner, reason: null as string | null },
    ...(group?.losers.map((loss) => ({ item: loss.item, reason: loss.reason })) ?? []),
  ];
  const identities =
    kind === "skill" ? skillIdentities(context.environment, pass.load("skill"), name) : undefined;
  const drift = identities?.find((identity) => identity.drift !== undefined)?.drift;
  if (input.values.json) {
    printJson(io, context, {
      kind,
      name,
      description: winner.description ?? null,
      ...(identities === undefined
        ? {}
        : {
            locations: identities.flatMap((identity) => identity.locations),
            ...(drift === undefined ? {} : { drift }),
          }),
      candidates: candidates.map(({ item, reason }) => ({
        ...facts(item, kind),
        reason,
        explanation: reason === null ? null : (REASONS[reason] ?? reason),
      })),
    });
    return 0;
  }
  io.stdout(
    `${safeLine(name)}: ${safeLine(winner.description ?? "")}\n\nCandidates, best first:\n`,
  );
  candidates.forEach(({ item, reason }, index) => {
    const shown = facts(item, kind);
    const verdict = reason === null ? "in use" : `lost: ${REASONS[reason] ?? reason}`;
    io.stdout(
      `  ${index + 1}. ${displayPath(item.path, context.style)}\n     ${safeLine(shown.source)}/${shown.scope}, precedence ${shown.precedence}, ${visibility(shown)}; ${verdict}\n`,
    );
  });
  if (identities !== undefined) io.stdout(locationsText(identities, drift, context.style));
  return 0;
}

// --- internal ---

/** Every place a skill of this name was found, by identity, and whether the copies drifted apart. */
function locationsText(
  identities: readonly SkillIdentity[],
  drift: readonly string[] | undefined,
  style: PathStyle,
): string {
  const lines = [
    drift === undefined
      ? "\nLocations (one content):"
      : `\nLocations: the copies drifted apart (${drift.length} different contents):`,
  ];
  for (const identity of identities) {
    lines.push(`  ${identity.identity}`);
    for (const place of identity.locations) lines.push(`    ${locationLine(place, style)}`);
  }
  return `${lines.join("\n")}\n`;
}

function facts(item: Shown, kind: string) {
  return {
    path: item.path,
    source: item.source,
    scope: item.scope,
    precedence: item.precedence,
    trusted: item.trusted,
    modelVisible:
      kind === "skill"
        ? isModelVisible({
            trusted: item.trusted,
            disableModelInvocation: item.disableModelInvocation === true,
          })
        : item.trusted,
  };
}

function visibility(shown: { trusted: boolean; modelVisible: boolean }): string {
  if (shown.modelVisible) return "visible to the model";
  return shown.trusted ? "operator-only" : "discovery-only";
}
