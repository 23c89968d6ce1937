import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errnoCode, isSkillshelfError, SkillshelfError } from "@skillshelf/core";

/**
 * A private staging folder `<tempDir>/<prefix>XXXXXX` and its idempotent `release()`; the staged
 * package goes into its `package` subfolder.
 */
export function stagingFolder(
  tempDir: string | undefined,
  prefix: string,
): { readonly dir: string; readonly release: () => void } {
  const container = mkdtempSync(join(tempDir ?? tmpdir(), prefix));
  let released = false;
  return {
    dir: join(container, "package"),
    release: () => {
      if (released) return;
      released = true;
      rmSync(container, { recursive: true, force: true });
    },
  };
}

/** A staging failure as a coded error: a file system failure is `stage_failed` naming the path. */
export function codedFailure(error: unknown): unknown {
  const code = errnoCode(error);
  if (isSkillshelfError(error) || code === undefined) return error;
  const path = (error as { path?: unknown }).path;
  return new SkillshelfError("stage_failed", `staging failed: ${(error as Error).message}`, {
    ...(typeof path === "string" ? { path } : {}),
    cause: error,
    hint: "check the source and the free space of the temporary folder, then retry",
  });
}
