/**
 * The key of the fault hook a writer's input may carry. Only tests reach it (through
 * `src/testing.ts`, built to `dist/testing.js` and not exported from the package), to stop a
 * writer at a named point and prove that a crash there leaves the scope before or after.
 */
export const FAULT_POINT: unique symbol = Symbol("skillshelf.store.faultPoint");

/** Called at each named point of a writer. */
export type FaultHook = (point: string) => void;

/** The hook an input carries, or one that does nothing. */
export function faultHook(input: object): FaultHook {
  const hook = (input as { [FAULT_POINT]?: FaultHook })[FAULT_POINT];
  return typeof hook === "function" ? hook : () => {};
}
