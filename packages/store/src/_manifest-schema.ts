import {
  isPackageId,
  isSemver,
  PACKAGE_KINDS,
  parseRequirementRef,
  RESOURCE_FOLDERS,
  RESOURCE_KINDS,
} from "@skillshelf/core";
import * as z from "zod/mini";
import type { util } from "zod/v4/core";
import { ENGLISH } from "./_zod-english.js";

/** The Agent Plugins schema our `plugin.json` follows, when a manifest names one. */
const AGENT_PLUGINS_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

/** The namespace of our declarations under `extensions`. */
export const EXTENSION_KEY = "skillshelf";

/** What a declared component may be: a resource, or a script, another resource file or a tool. */
const COMPONENT_KINDS: readonly [...typeof RESOURCE_KINDS, "script", "resource", "tool"] = [
  ...RESOURCE_KINDS,
  "script",
  "resource",
  "tool",
];

/** The schemas of `plugin.json`, built when a manifest is first read. */
function manifestSchemas() {
  const packageId = z
    .string()
    .check(
      z.refine(
        isPackageId,
        "must be a package id: 1-64 lowercase letters, digits, '.' and '-', starting and ending with a letter or digit, no '--' or '..'",
      ),
    );

  const requirement = z
    .string()
    .check(
      z.refine(
        (text) => parseRequirementRef(text) !== undefined,
        `must be a typed ref kind:name, kind one of ${PACKAGE_KINDS.join(", ")}`,
      ),
    );

  const component = z.strictObject({
    kind: z.enum(COMPONENT_KINDS),
    id: z
      .string()
      .check(
        z.maxLength(80),
        z.regex(/^[a-z0-9][a-z0-9._-]*$/, "must be lowercase letters, digits, '.', '_' and '-'"),
      ),
    path: z.string().check(z.minLength(1)),
    requires: z.optional(z.array(z.string())),
  });

  const extension = z.strictObject({
    manifestVersion: z.literal(1, "must be 1, the manifest version this reader supports"),
    kind: z.optional(z.enum(PACKAGE_KINDS)),
    requires: z.optional(z.array(requirement)),
    resources: z.optional(
      z.partialRecord(z.enum(RESOURCE_FOLDERS), z.string().check(z.minLength(1))),
    ),
    components: z.optional(z.array(component).check(z.maxLength(1024))),
  });

  // our `plugin.json`: the Agent Plugins shape, our declarations under `extensions.skillshelf`
  const manifest = z.strictObject({
    $schema: z.optional(z.literal(AGENT_PLUGINS_SCHEMA)),
    name: packageId,
    version: z
      .string()
      .check(z.refine(isSemver, "must be an explicit SemVer version such as 1.0.0")),
    description: z.optional(z.string()),
    homepage: z.optional(z.string()),
    repository: z.optional(z.union([z.string(), z.looseObject({ url: z.string() })])),
    license: z.optional(z.string()),
    author: z.optional(
      z.strictObject({
        name: z.optional(z.string()),
        email: z.optional(z.string()),
        url: z.optional(z.string()),
      }),
    ),
    keywords: z.optional(z.array(z.string())),
    extensions: z.optional(
      z
        .looseObject({ [EXTENSION_KEY]: z.optional(extension) })
        .check(
          z.refine(
            (extensions) =>
              Object.values(extensions).every(
                (value) => typeof value === "object" && value !== null,
              ),
            "must map each namespace to an object",
          ),
        ),
    ),
  });
  return { extension, manifest };
}

const manifestSchema = z.lazy(() => manifestSchemas().manifest);

/** `extensions.skillshelf` as the schema accepts it. */
export type ExtensionInput = z.infer<ReturnType<typeof manifestSchemas>["extension"]>;

/** `plugin.json` as the schema accepts it. */
export type ManifestInput = z.infer<ReturnType<typeof manifestSchemas>["manifest"]>;

/** Check a parsed `plugin.json` of ours against the manifest schema. */
export function parseManifestValue(value: unknown): util.SafeParseResult<ManifestInput> {
  return manifestSchema.safeParse(value, ENGLISH);
}
