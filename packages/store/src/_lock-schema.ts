import * as z from "zod/mini";
import type { util } from "zod/v4/core";
import { fastLock } from "./_fast-records.js";
import { recordFields } from "./_record-fields.js";
import type { LockFile } from "./_record-types.js";
import { ENGLISH } from "./_zod-english.js";

/** The schemas of `lock.json`, built when one is first used. */
function lockSchemas() {
  const fields = recordFields();
  const { kind, version, format, source, commit, text, digest, trust, audit, signer } = fields;
  const entry = z.strictObject({
    kind,
    version,
    format,
    source,
    commit,
    index: z.optional(text),
    mirror: z.optional(text),
    digest,
    trust,
    audit,
    signer,
    enabled: z.boolean(),
    requires: z.array(text),
  });

  const link = z.strictObject(fields.linkShape);

  // `lock.json`: what a scope should hold, read strictly like the state
  const lock = z.strictObject({
    version: z.literal(1, "must be 1, the lock format this reader supports"),
    packages: fields.byPackageId(entry),
    links: z.optional(fields.byLinkPath(link)),
  });
  return { entry, link, lock };
}

type LockSchemas = ReturnType<typeof lockSchemas>;

/** `lock.json`'s schema: it reads what the fast reader does not take; tests compare the two. */
export const lockSchema = z.lazy(() => lockSchemas().lock);

/** One package entry and one link entry of a lock (for files that carry entries, such as journals). */
export const lockEntrySchemas: {
  readonly package: z.ZodMiniLazy<LockSchemas["entry"]>;
  readonly link: z.ZodMiniLazy<LockSchemas["link"]>;
} = {
  package: z.lazy(() => lockSchemas().entry),
  link: z.lazy(() => lockSchemas().link),
};

/** Check a parsed `lock.json` against the lock format (the common case read by `fastLock`). */
export function parseLockValue(value: unknown): util.SafeParseResult<LockFile> {
  const fast = fastLock(value);
  return fast === undefined ? lockSchema.safeParse(value, ENGLISH) : { success: true, data: fast };
}
