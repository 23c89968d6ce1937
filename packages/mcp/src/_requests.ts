import * as z from "zod/mini";

// The SDK has no helpers for SEP-2640's methods: each is a request schema of its own (a literal
// `method` and its params), registered with `setRequestHandler` like a built-in one. Unknown
// params fields (`_meta`, fields of later revisions) are kept, as the SDK keeps its own. A `uri`
// is checked by the handler, so a missing or mistyped one is invalid params, coded, like any other.

type Loose<Shape extends z.core.$ZodShape> = z.ZodMiniObject<Shape, z.core.$loose>;
type Request<Method extends string, Params extends z.ZodMiniType> = z.ZodMiniObject<{
  method: z.ZodMiniLiteral<Method>;
  params: Params;
}>;

/** `skills/list`: one page of the served skills. */
export const SkillsListRequest: Request<
  "skills/list",
  z.ZodMiniOptional<Loose<{ cursor: z.ZodMiniOptional<z.ZodMiniString> }>>
> = z.object({
  method: z.literal("skills/list"),
  params: z.optional(z.looseObject({ cursor: z.optional(z.string()) })),
});

/** `skills/get`: one skill's entry by the URI of its `SKILL.md`. */
export const SkillsGetRequest: Request<
  "skills/get",
  Loose<{ uri: z.ZodMiniOptional<z.ZodMiniUnknown> }>
> = z.object({
  method: z.literal("skills/get"),
  params: z.looseObject({ uri: z.optional(z.unknown()) }),
});

/** `resources/directory/read`: the direct children of a folder of a served skill. */
export const DirectoryReadRequest: Request<
  "resources/directory/read",
  Loose<{ uri: z.ZodMiniOptional<z.ZodMiniUnknown>; cursor: z.ZodMiniOptional<z.ZodMiniString> }>
> = z.object({
  method: z.literal("resources/directory/read"),
  params: z.looseObject({ uri: z.optional(z.unknown()), cursor: z.optional(z.string()) }),
});
