import { createDiagnostic, type Diagnostic } from "@skillshelf/core";
import { defaultRules, skillRules } from "./rules.js";
import type {
  CollisionCandidate,
  CollisionGroup,
  CollisionResult,
  CollisionRule,
  SkillCandidate,
} from "./types.js";

export interface ResolveOptions<T> {
  /** Ordering keys, most important first. Default: precedence, then path. */
  readonly rules?: readonly CollisionRule<T>[] | undefined;
  /** How a candidate is named in messages, for example `skillshelf/user`. Default: its scope. */
  readonly label?: ((item: T) => string) | undefined;
}

/**
 * Group candidates by trimmed name (empty names are dropped) and pick one winner per name by the
 * rules. Every loser yields a `collision` warning whose details name the winner and loser paths and
 * scopes and the rule that decided. The result does not depend on the input order.
 */
export function resolveCollisions<T extends CollisionCandidate>(
  items: readonly T[],
  options: ResolveOptions<T> = {},
): CollisionResult<T> {
  const rules = options.rules ?? (defaultRules as readonly CollisionRule<T>[]);
  const label = options.label ?? ((item: T) => item.scope);
  // one candidate per name is the common case: keep it bare, make a list only on a clash
  const byName = new Map<string, T | T[]>();
  for (const item of items) {
    const name = item.name.trim();
    if (name === "") continue;
    const group = byName.get(name);
    if (group === undefined) byName.set(name, item);
    else if (Array.isArray(group)) group.push(item);
    else byName.set(name, [group, item]);
  }
  const winners: T[] = [];
  const groups: CollisionGroup<T>[] = [];
  const diagnostics: Diagnostic[] = [];
  // the default sort is code-unit order, independent of locale
  for (const name of [...byName.keys()].sort()) {
    const candidates = byName.get(name) as T | T[];
    if (!Array.isArray(candidates)) {
      winners.push(candidates);
      continue;
    }
    const ordered = [...candidates].sort((a, b) => compareBy(rules, b, a).order);
    const winner = ordered[0] as T;
    const losers = ordered
      .slice(1)
      .map((item) => ({ item, reason: compareBy(rules, winner, item).key }));
    winners.push(winner);
    groups.push({ name, winner, losers });
    for (const loser of losers)
      diagnostics.push(collisionDiagnostic(name, winner, loser.item, loser.reason, label));
  }
  return { winners, groups, diagnostics };
}

/** The first rule that tells two candidates apart, and which way (positive: `a` wins). */
export function compareBy<T>(
  rules: readonly CollisionRule<T>[],
  a: T,
  b: T,
): { order: number; key: string } {
  for (const rule of rules) {
    const order = rule.compare(a, b);
    if (order !== 0) return { order, key: rule.key };
  }
  return { order: 0, key: "equal" };
}

// --- internal ---

function collisionDiagnostic<T extends CollisionCandidate>(
  name: string,
  winner: T,
  loser: T,
  reason: string,
  label: (item: T) => string,
): Diagnostic {
  return createDiagnostic(
    "warning",
    "collision",
    `${name} from ${label(winner)} (${winner.path}) overrides ${label(loser)} (${loser.path}); decided by ${reason}`,
    {
      path: loser.path,
      details: {
        name,
        winnerPath: winner.path,
        loserPath: loser.path,
        winnerScope: winner.scope,
        loserScope: loser.scope,
        reason,
      },
    },
  );
}

/**
 * Resolve name clashes among resources of any kind by one order (trusted,
 * owned, precedence, agent rank, path), naming each side `source/scope` in diagnostics.
 */
export function resolveResourceCollisions<T extends SkillCandidate>(
  items: readonly T[],
): CollisionResult<T> {
  return resolveCollisions(items, {
    rules: skillRules,
    label: (item) => `${item.source}/${item.scope}`,
  });
}
