import { FAULT_POINT } from "./_fault-point.js";

/** Called at each named point of every writer an apply runs. */
export type FaultHook = (point: string) => void;

/** `options` for `applyLifecycle` with store's fault hook attached; for tests only (not a package export). */
export function withFaultHook<T extends object>(options: T, hook: FaultHook): T {
  return { ...options, [FAULT_POINT]: hook };
}
