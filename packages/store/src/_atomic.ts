import { isSkillshelfError, SkillshelfError, writeFileAtomic } from "@skillshelf/core";
import type { FaultHook } from "./_faults.js";

/**
 * Write a scope file atomically (see core's `writeFileAtomic`), stopping at the fault `point` once
 * the temporary file is durable; a file changed underneath is `state_changed`.
 */
export function writeScopeFile(options: {
  readonly path: string;
  readonly text: string;
  readonly expected: string | undefined;
  readonly fault: FaultHook;
  readonly point: string;
  /** `false`: the caller fsyncs the folder once after writing several files. */
  readonly syncFolder?: boolean | undefined;
}): void {
  const { fault, point, ...write } = options;
  try {
    writeFileAtomic({ ...write, beforeRename: () => fault(point) });
  } catch (error) {
    if (!isSkillshelfError(error) || error.code !== "file_changed") throw error;
    throw new SkillshelfError("state_changed", error.message, {
      path: error.path,
      cause: error,
    });
  }
}
