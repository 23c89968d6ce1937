import { nullPrototypeRecord } from "@skillshelf/core";
import * as z from "zod/mini";
import { recordFields } from "./_record-fields.js";

/** The schemas of `trust.json`, built when one is first read. */
function consentSchemas() {
  const { audit, digest, text } = recordFields();
  // what a person trusted for the model, by key: `package:<id>` (a foreign package of the scope),
  // `folder:<path>` (another agent's folder, relative to the scope's folder) or `upstream:<source>`
  // (a skill an MCP server serves, for a gateway to relay), bound to its digest
  const consent = z.strictObject({
    digest,
    at: z.iso.datetime({ offset: true }),
    // the agent whose folder it is
    agent: z.optional(text),
    // the audit verdict on the content when it was trusted
    audit,
  });

  const consentKey = z.string().check(
    z.regex(
      /^(package|folder|upstream):[^\0]+$/,
      "must be package:<id>, folder:<path> or upstream:<mcp source>",
    ),
    // a source is not a path here: only an id and a folder name one
    z.refine(
      (key) => key.startsWith("upstream:") || !key.split("/").includes(".."),
      "must not hold a `..` segment",
    ),
  );

  const file = z.strictObject({
    version: z.literal(1, "must be 1, the trust format this reader supports"),
    trusted: z.record(consentKey, consent).check(z.overwrite(nullPrototypeRecord)),
  });
  return { consent, file };
}

/** `trust.json`'s schema (tests hold its output equal to `ConsentFile`). */
export const consentsSchema = z.lazy(() => consentSchemas().file);
