/**
 * The key of the fault hook a writer's input may carry, to stop a writer at a named point and
 * prove that a crash there leaves the scope before or after. Tests attach it through
 * `dist/testing.js` (not a package export); it is a registered symbol so that `lifecycle`'s
 * test hook can pass one through its writers too. A hook only observes the named points.
 */
export const FAULT_POINT: unique symbol = Symbol.for("skillshelf.store.faultPoint");

/** Called at each named point of a writer. */
export type FaultHook = (point: string) => void;

/** The hook an input carries, or one that does nothing. */
export function faultHook(input: object): FaultHook {
  const hook = (input as { [FAULT_POINT]?: FaultHook })[FAULT_POINT];
  return typeof hook === "function" ? hook : () => {};
}
