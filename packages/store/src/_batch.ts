import { isSkillshelfError, type SkillshelfError } from "@skillshelf/core";
import { assertPackageId } from "./_id.js";
import { runWriter, type WriterContext, withCopiesObserved } from "./_writer.js";
import { packagesDir } from "./scopes.js";
import type { ScopeTarget, WriteResult } from "./types.js";

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

/**
 * A batch of changes to copies of one scope (`removePackages`, `setEnabledMany`): every input must
 * name the same scope and an id of its own; an id that is no package id refuses its input before
 * the disk is touched; then, under one scope lock, `check` judges each input in order and
 * `commit` makes the change for those before the first it refused.
 */
export function copyBatch<I extends ScopeTarget & { readonly id: string }, V>(
  writer: string,
  inputs: readonly I[],
  check: (context: WriterContext, input: I) => V,
  commit: (
    context: WriterContext,
    checked: readonly { readonly input: I; readonly value: V }[],
  ) => WriteResult[],
): WriteBatch {
  const [first] = inputs;
  if (first === undefined) return { results: [] };
  const dir = packagesDir(first.environment, first.scope);
  for (const input of inputs)
    if (packagesDir(input.environment, input.scope) !== dir)
      throw new Error(`${writer}: every input must name the same scope`);
  if (new Set(inputs.map((input) => input.id)).size !== inputs.length)
    throw new Error(`${writer}: an id appears twice`);
  for (const [index, input] of inputs.entries()) {
    const valid = attempted(index, () => assertPackageId(input.id));
    if (!valid.ok) return { results: [], failure: valid.failure };
  }
  let failure: WriteBatch["failure"];
  // each copy is checked in turn inside the lock, not the first alone before it
  const { id: _id, ...target } = first;
  const locked = attempted(0, () =>
    runWriter(target, (context) => {
      const checked: { readonly input: I; readonly value: V }[] = [];
      const checking = withCopiesObserved(context, inputs);
      for (const [index, input] of inputs.entries()) {
        const judged = attempted(index, () => check(checking, input));
        if (!judged.ok) {
          failure = judged.failure;
          break;
        }
        checked.push({ input, value: judged.value });
      }
      return commit(context, checked);
    }),
  );
  return locked.ok ? { results: locked.value, failure } : { results: [], failure: locked.failure };
}
