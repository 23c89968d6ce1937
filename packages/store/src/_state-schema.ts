import { isPackageId, isSemver, PACKAGE_KINDS } from "@skillshelf/core";
import { z } from "zod";

const packageId = z.string().refine(isPackageId, "must be a package id");
const text = z.string().min(1);

const source = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("local"), path: text }),
  z.strictObject({
    type: z.literal("git"),
    url: text,
    ref: text.optional(),
    path: text.optional(),
  }),
  z.strictObject({ type: z.literal("archive"), url: text, path: text.optional() }),
]);

const record = z
  .strictObject({
    kind: z.enum(PACKAGE_KINDS),
    version: z.string().refine(isSemver, "must be SemVer").optional(),
    format: z.enum(["skillshelf", "claude-code"]),
    installedAt: z.iso.datetime({ offset: true }),
    origin: z.strictObject({
      source,
      commit: z
        .string()
        .regex(/^[0-9a-f]{40,64}$/, "must be a full commit hash")
        .optional(),
      index: text.optional(),
    }),
    contentDigest: z
      .string()
      .regex(/^[0-9a-f]{64}$/, "must be a 64-character lowercase hex digest"),
    trust: z.enum(["trusted", "foreign"]),
  })
  .refine((value) => value.format !== "claude-code" || value.trust === "foreign", {
    message: "a claude-code package is always foreign",
    path: ["trust"],
  });

// `packages/state.json`, read strictly: any unknown key or malformed value refuses the whole file
const stateSchema = z.strictObject({
  version: z.literal(1, "must be 1, the state format this reader supports"),
  disabled: z
    .array(packageId)
    .refine((ids) => new Set(ids).size === ids.length, "must not repeat an id"),
  installed: z.record(packageId, record),
});

/** A scope's `packages/state.json`. */
export type ScopeState = z.infer<typeof stateSchema>;

/** The record `state.json` keeps for one installed copy. */
export type InstallRecord = z.infer<typeof record>;

/** How an installed copy reached this machine. */
export type PackageOrigin = InstallRecord["origin"];

/** Check a parsed `state.json` against the state format. */
export function parseStateValue(value: unknown): z.ZodSafeParseResult<ScopeState> {
  return stateSchema.safeParse(value);
}
