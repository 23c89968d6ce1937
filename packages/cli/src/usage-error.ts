import type { Code } from "@skillshelf/core";

/** A usage mistake: a coded diagnostic, printed with the command's usage line, exit status 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
  readonly code: Code;
  /** What the catalogue's hint is filled from (`suggestion`: the closest valid spelling). */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: Code, message: string, details?: Readonly<Record<string, unknown>>) {
    super(message);
    this.code = code;
    this.details = details;
  }
}
