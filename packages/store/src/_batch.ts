import { isSkillshelfError, type SkillshelfError } from "@skillshelf/core";
import type { WriteResult } from "./types.js";

/** What a batch writer (`installPackages`, `removePackages`) committed, and the first input it could not. */
export interface WriteBatch {
  /** One result per committed input, in input order: the inputs before `failure.index`. */
  readonly results: readonly WriteResult[];
  /** The first input that was refused or failed; the inputs after it were not attempted. */
  readonly failure?: { readonly index: number; readonly error: SkillshelfError } | undefined;
}

type Attempt<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly failure: NonNullable<WriteBatch["failure"]> };

/** Run `step` for input `index`; a `SkillshelfError` it throws becomes that input's failure. */
export function attempted<T>(index: number, step: () => T): Attempt<T> {
  try {
    return { ok: true, value: step() };
  } catch (error) {
    if (!isSkillshelfError(error)) throw error;
    return { ok: false, failure: { index, error } };
  }
}
