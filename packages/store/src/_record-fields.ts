import { isPackageId, isSemver, nullPrototypeRecord, PACKAGE_KINDS } from "@skillshelf/core";
import * as z from "zod/mini";

// The fields `state.json` records and `lock.json` entries share, checked alike in both files.

export const text = z.string().check(z.minLength(1));

export const packageId = z.string().check(z.refine(isPackageId, "must be a package id"));

export const source = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("local"), path: text }),
  z.strictObject({
    type: z.literal("git"),
    url: text,
    ref: z.optional(text),
    path: z.optional(text),
  }),
  z.strictObject({ type: z.literal("archive"), url: text, path: z.optional(text) }),
]);

export const kind = z.enum(PACKAGE_KINDS);
export const version = z.optional(z.string().check(z.refine(isSemver, "must be SemVer")));
export const format = z.enum(["skillshelf", "claude-code"]);
export const trust = z.enum(["trusted", "foreign"]);
export const commit = z.optional(
  z.string().check(z.regex(/^[0-9a-f]{40,64}$/, "must be a full commit hash")),
);
export const digest = z
  .string()
  .check(z.regex(/^[0-9a-f]{64}$/, "must be a 64-character lowercase hex digest"));

/** Values keyed by package id, read into a null-prototype record so no id resolves to something inherited. */
export function byPackageId<T extends z.core.SomeType>(value: T) {
  return z.record(packageId, value).check(z.overwrite(nullPrototypeRecord));
}
