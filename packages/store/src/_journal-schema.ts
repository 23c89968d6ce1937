import { isPackageId } from "@skillshelf/core";
import * as z from "zod/mini";
import { lockEntrySchemas } from "./_lock-schema.js";
import { isRelativeInside, recordFields } from "./_record-fields.js";
import { installRecordSchema, linkRecordSchema } from "./_state-schema.js";

const SIBLING = /^\.[^/\\]+\.[a-z]+-\d+-[0-9a-f]+$/;

/** The journal's schema, built when a journal is first read. */
function journalSchemaOf() {
  const { digest } = recordFields();
  const sibling = z.nullable(z.string().check(z.regex(SIBLING)));

  const treeMove = z
    .strictObject({
      id: z.string().check(z.refine(isPackageId, "must be a package id")),
      operation: z.enum(["install", "remove", "rollback"]),
      before: z.nullable(installRecordSchema),
      after: z.nullable(installRecordSchema),
      backup: sibling,
      staging: sibling,
    })
    // the trees a move names are the copy's own siblings, so a forged journal moves nothing else
    .check(
      z.refine(
        (move) =>
          [move.backup, move.staging].every(
            (name) => name === null || name.startsWith(`.${move.id}.`),
          ),
        "must name the copy's own siblings",
      ),
    );

  const linkMove = z
    .strictObject({
      key: z.string().check(z.refine(isRelativeInside, "must be a relative path")),
      op: z.enum(["make", "take", "refresh"]),
      record: linkRecordSchema,
      // a refreshed copy: the digest the copy had before, so it is still recognised as ours
      replaces: z.optional(digest),
      temporary: z.string().check(z.regex(SIBLING)),
    })
    .check(
      z.refine(
        (move) => move.temporary.startsWith(`.${move.key.slice(move.key.lastIndexOf("/") + 1)}.`),
        "must name the link's own sibling",
      ),
    );

  return z.strictObject({
    version: z.literal(2),
    pid: z.number(),
    operation: z.string(),
    committedState: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
    trees: z.array(treeMove),
    lock: z.strictObject({
      packages: z.array(
        z.tuple([z.string().check(z.refine(isPackageId)), z.nullable(lockEntrySchemas.package)]),
      ),
      links: z.array(
        z.tuple([z.string().check(z.refine(isRelativeInside)), z.nullable(lockEntrySchemas.link)]),
      ),
    }),
    links: z.array(linkMove),
  });
}

/** The journal's schema: it reads exactly a `StepJournal` (test/record-types.test.ts). */
export const journalSchema = z.lazy(journalSchemaOf);
