import { FAULT_POINT, type FaultHook } from "./_faults.js";

export type { FaultHook } from "./_faults.js";

/** `input` with a fault hook attached; for tests only (this module is not a package export). */
export function withFaultHook<T extends object>(input: T, hook: FaultHook): T {
  return { ...input, [FAULT_POINT]: hook };
}
