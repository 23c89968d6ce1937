import * as z from "zod/mini";
import type { util } from "zod/v4/core";
import {
  audit,
  byLinkPath,
  byPackageId,
  commit,
  digest,
  format,
  kind,
  linkShape,
  signer,
  source,
  text,
  trust,
  version,
} from "./_record-fields.js";
import { ENGLISH } from "./_zod-english.js";

const entry = z.strictObject({
  kind,
  version,
  format,
  source,
  commit,
  index: z.optional(text),
  digest,
  trust,
  audit,
  signer,
  enabled: z.boolean(),
  requires: z.array(text),
});

const link = z.strictObject(linkShape);

/** One package entry and one link entry of a lock (for files that carry entries, such as journals). */
export const lockEntrySchemas: { readonly package: typeof entry; readonly link: typeof link } = {
  package: entry,
  link,
};

// `lock.json`: what a scope should hold, read strictly like the state
const lockSchema = z.strictObject({
  version: z.literal(1, "must be 1, the lock format this reader supports"),
  packages: byPackageId(entry),
  links: z.optional(byLinkPath(link)),
});

/** A scope's `lock.json`: for each package id, what the scope should hold. */
export type LockFile = z.infer<typeof lockSchema>;

/** One package as the lock pins it. */
export type LockedPackage = z.infer<typeof entry>;

/** One link as the lock pins it. */
export type LockedLink = NonNullable<LockFile["links"]>[string];

/** Check a parsed `lock.json` against the lock format. */
export function parseLockValue(value: unknown): util.SafeParseResult<LockFile> {
  return lockSchema.safeParse(value, ENGLISH);
}
