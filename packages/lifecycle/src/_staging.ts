import { canonicalJson, type PackageSource } from "@skillshelf/core";
import type { FetchedSource } from "@skillshelf/sources";

/**
 * The staged folders a plan owns (sources, skills, staging areas): released together, any
 * number of times.
 */
export interface StagingSet {
  add<Staged extends { release(): void }>(staged: Staged): Staged;
  /** Give up `staged` without releasing it: its new owner releases it. */
  handOver<Staged extends { release(): void }>(staged: Staged): Staged;
  /** Delete every staged folder; safe to call again. */
  release(): void;
  readonly size: number;
}

/** A new, empty staging set. */
export function createStagingSet(): StagingSet {
  const staged: { release(): void }[] = [];
  return {
    add(source) {
      staged.push(source);
      return source;
    },
    handOver(source) {
      const at = staged.indexOf(source);
      if (at >= 0) staged.splice(at, 1);
      return source;
    },
    release() {
      for (const source of staged.splice(0)) source.release();
    },
    get size() {
      return staged.length;
    },
  };
}

/**
 * Fetched sources one command keeps between its plans: a collection a plan was refused for
 * until skills are picked is kept here, and the plan made with the pick takes it instead of
 * fetching it again. The command releases what no plan took.
 */
export interface SourceFetches {
  /** Keep `fetched` for the next plan that stages `source`. */
  keep(source: PackageSource, fetched: FetchedSource): void;
  /** The fetch kept for `source`, now the caller's, if any. */
  take(source: PackageSource): FetchedSource | undefined;
  /** Delete every fetch no plan took; safe to call again. */
  release(): void;
}

/** A new, empty set of kept fetches. */
export function createSourceFetches(): SourceFetches {
  const kept = new Map<string, FetchedSource>();
  return {
    keep(source, fetched) {
      kept.get(canonicalJson(source))?.release();
      kept.set(canonicalJson(source), fetched);
    },
    take(source) {
      const key = canonicalJson(source);
      const fetched = kept.get(key);
      kept.delete(key);
      return fetched;
    },
    release() {
      for (const fetched of kept.values()) fetched.release();
      kept.clear();
    },
  };
}
