import { createDiagnostic, type Diagnostic } from "@skillshelf/core";
import { toSummary } from "./_validate.js";
import type { ShadowedSkill, SkillCandidate } from "./types.js";

/** One candidate in a read, with what orders it against others in its layer. */
export interface Offer {
  readonly candidate: SkillCandidate;
  /** The registration order of its provider (the runtime provider is -1). */
  readonly providerOrder: number;
  /** Its position in its provider's list. */
  readonly index: number;
  /** Loads its definition. */
  readonly load: (signal: AbortSignal) => Promise<unknown>;
  /** Tells the registry its provider's catalog is stale (only while that registration is live). */
  readonly invalidate: () => void;
}

/** The winners of a merge by name, and every candidate that lost. */
export interface Merge {
  readonly winners: Map<string, Offer>;
  readonly shadowed: ShadowedSkill[];
  readonly diagnostics: Diagnostic[];
}

/**
 * Merge one layer: candidates ordered by rank (lower first), then provider registration order,
 * then the provider's own order; the first of each name wins and each loser is reported.
 */
export function mergeLayer(offers: readonly Offer[]): Merge {
  const ordered = [...offers].sort(
    (a, b) =>
      a.candidate.rank - b.candidate.rank || a.providerOrder - b.providerOrder || a.index - b.index,
  );
  const winners = new Map<string, Offer>();
  const shadowed: ShadowedSkill[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const offer of ordered) {
    const { name } = offer.candidate;
    const winner = winners.get(name);
    if (winner === undefined) {
      winners.set(name, offer);
      continue;
    }
    const reason = winner.candidate.rank !== offer.candidate.rank ? "rank" : "order";
    shadowed.push({
      name,
      winner: toSummary(winner.candidate),
      loser: toSummary(offer.candidate),
      reason,
    });
    diagnostics.push(
      createDiagnostic(
        "warning",
        "skill_shadowed",
        `${name} from provider "${offer.candidate.provider}" is ignored because a higher-priority skill already exists (from "${winner.candidate.provider}")`,
        {
          path: offer.candidate.path,
          details: {
            name,
            winner: winner.candidate.provider,
            loser: offer.candidate.provider,
            reason,
          },
        },
      ),
    );
  }
  return { winners, shadowed, diagnostics };
}

/** Merge layers from farthest to nearest: a nearer layer's entry replaces a farther one outright. */
export function mergeLayers(layers: readonly Merge[]): Merge {
  const winners = new Map<string, Offer>();
  const shadowed: ShadowedSkill[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const layer of layers) {
    shadowed.push(...layer.shadowed);
    diagnostics.push(...layer.diagnostics);
    for (const [name, offer] of layer.winners) {
      const farther = winners.get(name);
      if (farther !== undefined)
        shadowed.push({
          name,
          winner: toSummary(offer.candidate),
          loser: toSummary(farther.candidate),
          reason: "layer",
        });
      winners.set(name, offer);
    }
  }
  return { winners, shadowed, diagnostics };
}
