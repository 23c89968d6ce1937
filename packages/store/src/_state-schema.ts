import * as z from "zod/mini";
import type { util } from "zod/v4/core";
import { fastState } from "./_fast-records.js";
import {
  isDistinct,
  isFingerprints,
  isForeignWhenClaudeCode,
  recordFields,
} from "./_record-fields.js";
import type { ScopeState } from "./_record-types.js";
import { ENGLISH } from "./_zod-english.js";

/** The schemas of `packages/state.json`, built when one is first used. */
function stateSchemas() {
  const fields = recordFields();
  const { kind, version, format, source, commit, text, digest, trust, audit, signer } = fields;
  const recordShape = {
    kind,
    version,
    format,
    installedAt: z.iso.datetime({ offset: true }),
    origin: z.strictObject({ source, commit, index: z.optional(text), mirror: z.optional(text) }),
    contentDigest: digest,
    trust,
    audit,
    signer,
    // the manifest's requirements, so the lock can be written from the state alone
    requires: z.optional(z.array(text)),
    // each file's own fingerprint, so verify can name the files that changed (a plain record, as
    // written: it is only compared, never looked up by a key from elsewhere); one entry per file
    // of every copy, so checked in one loop rather than as a schema per entry
    files: z.optional(
      z.custom<Record<string, string>>(
        isFingerprints,
        "must map each file's path to its fingerprint",
      ),
    ),
  };

  const foreignWhenClaudeCode = z.refine<{ format: string; trust: string }>(
    isForeignWhenClaudeCode,
    {
      message: "a claude-code package is always foreign",
      path: ["trust"],
    },
  );

  // the record an update replaced, kept with its tree so `rollback` can restore it
  const previousRecord = z.strictObject(recordShape).check(foreignWhenClaudeCode);

  const record = z
    .strictObject({ ...recordShape, previous: z.optional(previousRecord) })
    .check(foreignWhenClaudeCode);

  const linkRecord = z.strictObject({ ...fields.linkShape, digest });

  // `packages/state.json`, read strictly: any unknown key or malformed value refuses the whole file
  const state = z.strictObject({
    version: z.literal(1, "must be 1, the state format this reader supports"),
    disabled: z.array(fields.packageId).check(z.refine(isDistinct, "must not repeat an id")),
    installed: fields.byPackageId(record),
    // what was linked into other agents' folders, with the digest of what each link exposed
    links: z.optional(fields.byLinkPath(linkRecord)),
  });
  return { previousRecord, record, linkRecord, state };
}

type StateSchemas = ReturnType<typeof stateSchemas>;

/** `state.json`'s schema: it reads what the fast reader does not take; tests compare the two. */
export const stateSchema = z.lazy(() => stateSchemas().state);

/** One install record, as `state.json` holds it (for files that carry records, such as journals). */
export const installRecordSchema: z.ZodMiniLazy<StateSchemas["record"]> = z.lazy(
  () => stateSchemas().record,
);

/** One link record, as `state.json` holds it. */
export const linkRecordSchema: z.ZodMiniLazy<StateSchemas["linkRecord"]> = z.lazy(
  () => stateSchemas().linkRecord,
);

/** Check a parsed `state.json` against the state format (the common case read by `fastState`). */
export function parseStateValue(value: unknown): util.SafeParseResult<ScopeState> {
  const fast = fastState(value);
  return fast === undefined ? stateSchema.safeParse(value, ENGLISH) : { success: true, data: fast };
}
