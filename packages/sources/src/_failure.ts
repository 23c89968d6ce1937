import { errnoCode, isSkillshelfError, SkillshelfError } from "@skillshelf/core";

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
