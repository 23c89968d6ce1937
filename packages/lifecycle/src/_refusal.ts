import {
  type Code,
  createDiagnostic,
  type DetailsOf,
  errorDiagnostic,
  isSkillshelfError,
} from "@skillshelf/core";
import type { Refusal } from "./types.js";

/** A refusal: an error finding with the catalogue's hint for its code (its details typed by code). */
export function refusal<C extends Code>(code: C, message: string, details?: DetailsOf<C>): Refusal {
  return createDiagnostic("error", code, message, { details });
}

/** A refusal for what staging or reading threw; anything that is not ours is rethrown. */
export function refusalOf(error: unknown): Refusal {
  if (!isSkillshelfError(error)) throw error;
  return errorDiagnostic(error);
}
