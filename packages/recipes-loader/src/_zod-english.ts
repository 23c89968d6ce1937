import type { $ZodIssue, ParseContext } from "zod/v4/core";
import en from "zod/v4/locales/en.js";

/**
 * Parse options giving zod's English messages. `zod/mini` (chosen for start-up: a fraction of
 * classic zod's size, and its schemas carry no methods to build) loads no locale, and setting one
 * globally would change the messages of every other zod user in the process.
 */
export const ENGLISH: ParseContext<$ZodIssue> = { error: en().localeError };
