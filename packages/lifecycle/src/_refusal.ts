import { CODES, type Code, isSkillshelfError } from "@skillshelf/core";
import type { Refusal } from "./types.js";

/** A refusal with the catalogue's hint for its code. */
export function refusal(
  code: Code,
  message: string,
  details?: Readonly<Record<string, unknown>>,
): Refusal {
  return { code, message, hint: CODES[code].hint, ...(details === undefined ? {} : { details }) };
}

/** A refusal for what staging or reading threw; anything that is not ours is rethrown. */
export function refusalOf(error: unknown): Refusal {
  if (!isSkillshelfError(error)) throw error;
  return {
    code: error.code,
    message: error.message,
    hint: error.hint ?? CODES[error.code].hint,
    ...(error.details === undefined ? {} : { details: error.details as Record<string, unknown> }),
  };
}
