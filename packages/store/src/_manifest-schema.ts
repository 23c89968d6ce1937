import {
  isPackageId,
  isSemver,
  PACKAGE_KINDS,
  parseRequirementRef,
  RESOURCE_FOLDERS,
  RESOURCE_KINDS,
} from "@skillshelf/core";
import { z } from "zod";

/** The Agent Plugins schema our `plugin.json` follows, when a manifest names one. */
const AGENT_PLUGINS_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

/** The namespace of our declarations under `extensions`. */
export const EXTENSION_KEY = "skillshelf";

/** What a declared component may be: a resource, or a script, another resource file or a tool. */
export const COMPONENT_KINDS: readonly [...typeof RESOURCE_KINDS, "script", "resource", "tool"] = [
  ...RESOURCE_KINDS,
  "script",
  "resource",
  "tool",
];

const packageId = z
  .string()
  .refine(
    isPackageId,
    "must be a package id: 1-64 lowercase letters, digits, '.' and '-', starting and ending with a letter or digit, no '--' or '..'",
  );

const requirement = z
  .string()
  .refine(
    (text) => parseRequirementRef(text) !== undefined,
    `must be a typed ref kind:name, kind one of ${PACKAGE_KINDS.join(", ")}`,
  );

const component = z.strictObject({
  kind: z.enum(COMPONENT_KINDS),
  id: z
    .string()
    .max(80)
    .regex(/^[a-z0-9][a-z0-9._-]*$/, "must be lowercase letters, digits, '.', '_' and '-'"),
  path: z.string().min(1),
  requires: z.array(z.string()).optional(),
});

const extension = z.strictObject({
  manifestVersion: z.literal(1, "must be 1, the manifest version this reader supports"),
  kind: z.enum(PACKAGE_KINDS).optional(),
  requires: z.array(requirement).optional(),
  resources: z.partialRecord(z.enum(RESOURCE_FOLDERS), z.string().min(1)).optional(),
  components: z.array(component).max(1024).optional(),
});

// our `plugin.json`: the Agent Plugins shape, our declarations under `extensions.skillshelf`
const manifestSchema = z.strictObject({
  $schema: z.literal(AGENT_PLUGINS_SCHEMA).optional(),
  name: packageId,
  version: z.string().refine(isSemver, "must be an explicit SemVer version such as 1.0.0"),
  description: z.string().optional(),
  homepage: z.string().optional(),
  repository: z.union([z.string(), z.looseObject({ url: z.string() })]).optional(),
  license: z.string().optional(),
  author: z
    .strictObject({
      name: z.string().optional(),
      email: z.string().optional(),
      url: z.string().optional(),
    })
    .optional(),
  keywords: z.array(z.string()).optional(),
  extensions: z
    .looseObject({ [EXTENSION_KEY]: extension.optional() })
    .refine(
      (extensions) =>
        Object.values(extensions).every((value) => typeof value === "object" && value !== null),
      "must map each namespace to an object",
    )
    .optional(),
});

/** `extensions.skillshelf` as the schema accepts it. */
export type ExtensionInput = z.infer<typeof extension>;

/** `plugin.json` as the schema accepts it. */
export type ManifestInput = z.infer<typeof manifestSchema>;

/** Check a parsed `plugin.json` of ours against the manifest schema. */
export function parseManifestValue(value: unknown): z.ZodSafeParseResult<ManifestInput> {
  return manifestSchema.safeParse(value);
}
