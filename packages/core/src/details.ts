import type { Code } from "./codes.js";
import type { Scope } from "./types.js";

/** A skill a collection offers, as `collection_choice_required` lists it. */
export type OfferedSkill = {
  readonly name: string;
  readonly description: string;
  /** Its folder inside the collection: what picks it when several share the name. */
  readonly path: string;
};

/**
 * The `details` a program reads of a code, by code, typed once here: `createDiagnostic` checks
 * them where a diagnostic of one of these codes is made, and `detailsOf` gives them typed where
 * they are read. Every other code's details are free (`Readonly<Record<string, unknown>>`).
 */
export type CodeDetails = {
  readonly collection_choice_required: { readonly skills: readonly OfferedSkill[] };
  readonly audit_refused: {
    /** The rules found at or above the threshold and not approved. */
    readonly rules: readonly string[];
    readonly threshold: string;
    /** The findings of those rules (the audit's finding shape). */
    readonly findings: readonly unknown[];
  };
  readonly stale_plan: {
    readonly scope: string;
    readonly id: string;
    /** The reviewed fact that changed (`tree`, `enabled`, `record`, or a record field). */
    readonly fact: string;
    readonly expected: unknown;
    readonly observed: unknown;
  };
  readonly content_drift: {
    readonly id: string;
    readonly scope?: string;
    readonly recorded?: string;
    readonly observed?: string;
    /** The files that differ from the install record, when known. */
    readonly files?: readonly string[];
  };
  readonly duplicate_file: {
    readonly name: string;
    readonly winnerPath: string;
    readonly loserPath: string;
    readonly winnerScope: Scope;
    readonly loserScope: Scope;
  };
  readonly skill_name_unaddressable_fallback: { readonly name: string; readonly subject: string };
};

/** The details a diagnostic of code `C` carries. */
export type DetailsOf<C extends Code> = C extends keyof CodeDetails
  ? CodeDetails[C]
  : Readonly<Record<string, unknown>>;

/**
 * The typed details of `found` when its code is `code`, else `undefined`.
 *
 * @example
 * const offered = detailsOf(step.refusal, "collection_choice_required")?.skills ?? [];
 */
export function detailsOf<C extends keyof CodeDetails>(
  found:
    | { readonly code: string; readonly details?: Readonly<Record<string, unknown>> | undefined }
    | undefined,
  code: C,
): CodeDetails[C] | undefined {
  // one cast, here: every creator of the code is checked against `CodeDetails` by the compiler
  return found?.code === code ? (found.details as CodeDetails[C] | undefined) : undefined;
}
