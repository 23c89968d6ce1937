import type { WriteBatch } from "./_batch.js";
import { setEnabledMany } from "./enable.js";
import { rollbackPackages } from "./install.js";
import { removePackages } from "./remove.js";
import type { CopyFacts, ScopeTarget } from "./types.js";

/** A change to copies already installed that one batch writer commits. */
export type CopyWrite = "enable" | "disable" | "remove" | "rollback";

/** One copy a batch changes, and the facts its plan reviewed (the writer checks them again). */
export interface CopyWriteInput extends ScopeTarget {
  readonly id: string;
  readonly reviewed: CopyFacts;
}

/**
 * Commit `change` to every copy of `inputs` (one scope) with the store's one writer for it: the
 * copies before the first that fails commit together (see `WriteBatch`).
 */
export function writeCopyBatch(change: CopyWrite, inputs: readonly CopyWriteInput[]): WriteBatch {
  return COPY_WRITERS[change](inputs);
}

// --- internal ---

const COPY_WRITERS: {
  readonly [W in CopyWrite]: (inputs: readonly CopyWriteInput[]) => WriteBatch;
} = {
  enable: (inputs) => setEnabledMany(inputs.map((input) => ({ ...input, enabled: true }))),
  disable: (inputs) => setEnabledMany(inputs.map((input) => ({ ...input, enabled: false }))),
  remove: removePackages,
  rollback: rollbackPackages,
};
