/**
 * The staged folders a plan owns (sources, skills, staging areas): released together, any
 * number of times.
 */
export interface StagingSet {
  add<Staged extends { release(): void }>(staged: Staged): Staged;
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
    release() {
      for (const source of staged.splice(0)) source.release();
    },
    get size() {
      return staged.length;
    },
  };
}
