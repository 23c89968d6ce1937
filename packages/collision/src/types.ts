import type { Diagnostic, ResourceSource, Scope } from "@skillshelf/core";

/** The least a resource needs to take part in name collisions. */
export interface CollisionCandidate {
  readonly name: string;
  /** The file that defines it; reported on both sides of a collision. */
  readonly path: string;
  readonly scope: Scope;
  /** Higher wins. A kind sets it on every candidate or on none (then the scope decides). */
  readonly precedence?: number | undefined;
}

/** A skill's collision facts: trust, ownership, precedence, agent rank, path. */
export interface SkillCandidate extends CollisionCandidate {
  readonly source: ResourceSource;
  readonly trusted: boolean;
  readonly precedence: number;
}

/** One ordering key; `compare(a, b)` is positive when `a` beats `b`, zero when this key cannot tell. */
export interface CollisionRule<T> {
  readonly key: string;
  readonly compare: (a: T, b: T) => number;
}

/** A candidate that lost, and the first rule that decided against it. */
export interface CollisionLoss<T> {
  readonly item: T;
  readonly reason: string;
}

/** All candidates for one name: the winner and the losers, best first. */
export interface CollisionGroup<T> {
  readonly name: string;
  readonly winner: T;
  readonly losers: readonly CollisionLoss<T>[];
}

/** What `resolveCollisions` returns. */
export interface CollisionResult<T> {
  /** One winner per name, sorted by name. */
  readonly winners: T[];
  /** Only the names that had more than one candidate. */
  readonly groups: CollisionGroup<T>[];
  /** One `collision` warning per loser, naming both paths and scopes. */
  readonly diagnostics: Diagnostic[];
}
