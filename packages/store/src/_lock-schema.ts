import { isPackageId, isSemver, nullPrototypeRecord, PACKAGE_KINDS } from "@skillshelf/core";
import * as z from "zod/mini";
import type { util } from "zod/v4/core";
import { ENGLISH } from "./_zod-english.js";

const text = z.string().check(z.minLength(1));
const hex = (length: string, what: string) =>
  z.string().check(z.regex(new RegExp(`^[0-9a-f]{${length}}$`), what));

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

const entry = z.strictObject({
  kind: z.enum(PACKAGE_KINDS),
  version: z.optional(z.string().check(z.refine(isSemver, "must be SemVer"))),
  format: z.enum(["skillshelf", "claude-code"]),
  source,
  commit: z.optional(hex("40,64", "must be a full commit hash")),
  index: z.optional(text),
  digest: hex("64", "must be a 64-character lowercase hex digest"),
  trust: z.enum(["trusted", "foreign"]),
  enabled: z.boolean(),
  requires: z.array(text),
});

// `lock.json`: what a scope should hold, read strictly like the state
const lockSchema = z.strictObject({
  version: z.literal(1, "must be 1, the lock format this reader supports"),
  packages: z
    .record(z.string().check(z.refine(isPackageId, "must be a package id")), entry)
    .check(z.overwrite(nullPrototypeRecord)),
});

/** A scope's `lock.json`: for each package id, what the scope should hold (DESIGN §5.2). */
export type LockFile = z.infer<typeof lockSchema>;

/** One package as the lock pins it. */
export type LockedPackage = z.infer<typeof entry>;

/** Check a parsed `lock.json` against the lock format. */
export function parseLockValue(value: unknown): util.SafeParseResult<LockFile> {
  return lockSchema.safeParse(value, ENGLISH);
}
