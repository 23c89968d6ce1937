import { isPackageId, isSemver, nullPrototypeRecord, PACKAGE_KINDS } from "@skillshelf/core";
import * as z from "zod/mini";
import type { util } from "zod/v4/core";
import { ENGLISH } from "./_zod-english.js";

const packageId = z.string().check(z.refine(isPackageId, "must be a package id"));
const text = z.string().check(z.minLength(1));

const source = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("local"), path: text }),
  z.strictObject({
    type: z.literal("git"),
    url: text,
    ref: z.optional(text),
    path: z.optional(text),
  }),
  z.strictObject({ type: z.literal("archive"), url: text, path: z.optional(text) }),
]);

const recordShape = {
  kind: z.enum(PACKAGE_KINDS),
  version: z.optional(z.string().check(z.refine(isSemver, "must be SemVer"))),
  format: z.enum(["skillshelf", "claude-code"]),
  installedAt: z.iso.datetime({ offset: true }),
  origin: z.strictObject({
    source,
    commit: z.optional(
      z.string().check(z.regex(/^[0-9a-f]{40,64}$/, "must be a full commit hash")),
    ),
    index: z.optional(text),
  }),
  contentDigest: z
    .string()
    .check(z.regex(/^[0-9a-f]{64}$/, "must be a 64-character lowercase hex digest")),
  trust: z.enum(["trusted", "foreign"]),
  // the manifest's requirements, so the lock can be written from the state alone
  requires: z.optional(z.array(text)),
};

const foreignWhenClaudeCode = z.refine<{ format: string; trust: string }>(
  (value) => value.format !== "claude-code" || value.trust === "foreign",
  { message: "a claude-code package is always foreign", path: ["trust"] },
);

// the record an update replaced, kept with its tree so `rollback` can restore it
const previousRecord = z.strictObject(recordShape).check(foreignWhenClaudeCode);

const record = z
  .strictObject({ ...recordShape, previous: z.optional(previousRecord) })
  .check(foreignWhenClaudeCode);

// `packages/state.json`, read strictly: any unknown key or malformed value refuses the whole file
const stateSchema = z.strictObject({
  version: z.literal(1, "must be 1, the state format this reader supports"),
  disabled: z
    .array(packageId)
    .check(z.refine((ids) => new Set(ids).size === ids.length, "must not repeat an id")),
  installed: z.record(packageId, record).check(z.overwrite(nullPrototypeRecord)),
});

/** A scope's `packages/state.json`. */
export type ScopeState = z.infer<typeof stateSchema>;

/** The record `state.json` keeps for one installed copy. */
export type InstallRecord = z.infer<typeof record>;

/** The record an update replaced (kept for `rollback`). */
export type PreviousRecord = z.infer<typeof previousRecord>;

/** How an installed copy reached this machine. */
export type PackageOrigin = InstallRecord["origin"];

/** Check a parsed `state.json` against the state format. */
export function parseStateValue(value: unknown): util.SafeParseResult<ScopeState> {
  return stateSchema.safeParse(value, ENGLISH);
}
