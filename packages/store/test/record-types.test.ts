import { expectTypeOf, it } from "vitest";
import type * as z from "zod/mini";
import type { consentsSchema } from "../src/_consent-schema.js";
import type { journalSchema } from "../src/_journal-schema.js";
import type { lockEntrySchemas, lockSchema } from "../src/_lock-schema.js";
import type { ExtensionInput } from "../src/_manifest-schema.js";
import type {
  ConsentFile,
  InstallRecord,
  LinkRecord,
  LockedLink,
  LockedPackage,
  LockFile,
  ManifestExtension,
  ScopeState,
} from "../src/_record-types.js";
import type { installRecordSchema, linkRecordSchema, stateSchema } from "../src/_state-schema.js";
import type { StepJournal } from "../src/_step-journal.js";

// The record shapes are written out (so the declarations name no validator); each schema must
// read exactly its shape. Each pair is checked for assignability both ways and for the same keys
// (an optional field in one and not the other passes the first alone).

/** `true` when `A` and `B` accept the same values and name the same fields. */
type Same<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>] extends [never]
      ? true
      : false
    : false
  : false;

type State = z.output<typeof stateSchema>;
type Record = z.output<typeof installRecordSchema>;
type Lock = z.output<typeof lockSchema>;
type Locked = z.output<(typeof lockEntrySchemas)["package"]>;
type Consents = z.output<typeof consentsSchema>;

it("holds every written record shape equal to what its schema reads, field by field", () => {
  expectTypeOf<Same<State, ScopeState>>().toEqualTypeOf<true>();
  expectTypeOf<Same<NonNullable<State["links"]>[string], LinkRecord>>().toEqualTypeOf<true>();
  expectTypeOf<Same<Record, InstallRecord>>().toEqualTypeOf<true>();
  expectTypeOf<
    Same<NonNullable<Record["previous"]>, NonNullable<InstallRecord["previous"]>>
  >().toEqualTypeOf<true>();
  expectTypeOf<Same<Record["origin"], InstallRecord["origin"]>>().toEqualTypeOf<true>();
  expectTypeOf<
    Same<NonNullable<Record["audit"]>, NonNullable<InstallRecord["audit"]>>
  >().toEqualTypeOf<true>();
  expectTypeOf<Same<z.output<typeof linkRecordSchema>, LinkRecord>>().toEqualTypeOf<true>();
  expectTypeOf<Same<Lock, LockFile>>().toEqualTypeOf<true>();
  expectTypeOf<Same<Locked, LockedPackage>>().toEqualTypeOf<true>();
  expectTypeOf<
    Same<z.output<(typeof lockEntrySchemas)["link"]>, LockedLink>
  >().toEqualTypeOf<true>();
  expectTypeOf<Same<Consents, ConsentFile>>().toEqualTypeOf<true>();
  expectTypeOf<Same<ExtensionInput, ManifestExtension>>().toEqualTypeOf<true>();
  expectTypeOf<
    Same<
      NonNullable<ExtensionInput["components"]>[number],
      NonNullable<ManifestExtension["components"]>[number]
    >
  >().toEqualTypeOf<true>();
  type Journal = z.output<typeof journalSchema>;
  expectTypeOf<Same<Journal, StepJournal>>().toEqualTypeOf<true>();
  expectTypeOf<
    Same<Journal["trees"][number], StepJournal["trees"][number]>
  >().toEqualTypeOf<true>();
  expectTypeOf<
    Same<Journal["links"][number], StepJournal["links"][number]>
  >().toEqualTypeOf<true>();
  expectTypeOf<Same<Journal["lock"], StepJournal["lock"]>>().toEqualTypeOf<true>();
  expectTypeOf<
    Same<Consents["trusted"][string], ConsentFile["trusted"][string]>
  >().toEqualTypeOf<true>();
});
