import { type Code, hintOf } from "./codes.js";

/** Options of a `SkillshelfError`: what to do next, the underlying error, the path involved. */
export interface SkillshelfErrorOptions {
  readonly hint?: string | undefined;
  readonly cause?: unknown;
  readonly path?: string | undefined;
  /** Facts a program may act on, for example the `fact`, `expected` and `observed` of a stale plan. */
  readonly details?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The one error class for failures a user can hit. `code` is stable (see `CODES`), `hint` says
 * what to do next (the code's default hint unless a more precise one is given), `path` names the
 * file or folder involved. Programmer errors stay plain `Error`s.
 */
export class SkillshelfError extends Error {
  readonly code: Code;
  readonly hint: string;
  readonly path: string | undefined;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: Code, message: string, options: SkillshelfErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SkillshelfError";
    this.code = code;
    this.hint = options.hint ?? hintOf(code, options.details);
    this.path = options.path;
    this.details = options.details;
  }
}

/** True for a `SkillshelfError`, also one from another copy of this package. */
export function isSkillshelfError(value: unknown): value is SkillshelfError {
  return value instanceof Error && value.name === "SkillshelfError" && "code" in value;
}

/** The `code` of a Node system error (`ENOENT`, `EACCES`, …), if it has one. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/**
 * `error` as a user should see it when it stopped a write: no space left (`ENOSPC`, `EDQUOT`)
 * becomes `disk_full` with the path it was writing (the error's own, else `path`) and `hint`
 * saying what to do; a folder or file this user may not write (`EACCES`, `EPERM`, `EROFS`)
 * `not_writable`; any other error is returned as it is.
 */
export function codedWriteError(
  error: unknown,
  options: {
    readonly path?: string | undefined;
    /** The change was committed before the disk filled: what is left is finishing it. */
    readonly committed?: boolean | undefined;
  } = {},
): unknown {
  const code = errnoCode(error);
  if (code === "EACCES" || code === "EPERM" || code === "EROFS") {
    const own = (error as { path?: unknown }).path;
    const where = typeof own === "string" ? own : options.path;
    return new SkillshelfError(
      "not_writable",
      `${where ?? "a file"} cannot be written: ${code === "EROFS" ? "the file system is read-only" : "permission denied"}`,
      { path: where, cause: error },
    );
  }
  if (code !== "ENOSPC" && code !== "EDQUOT") return error;
  const own = (error as { path?: unknown }).path;
  const where = typeof own === "string" ? own : options.path;
  return new SkillshelfError(
    options.committed === true ? "disk_full_after_commit" : "disk_full",
    `no space is left on the device to write ${where ?? "a file"}`,
    { path: where, cause: error },
  );
}
