import type { Diagnostic } from "@skillshelf/core";
import { renderSkillContent, type SkillContentInput } from "./content.js";

/** Where an invoked skill came from, for the host to show and log beside what the model is given. */
export interface InvocationProvenance {
  /** Where it comes from, for display: `skillshelf`, `claude-code`, `package:<id>`, a provider's source. */
  readonly source: string;
  /** Which library it is in, for a loaded skill: `project`, `user`, `package`, `cli`. */
  readonly scope?: string | undefined;
  /** Its `SKILL.md` (or where the provider says it is), when it has one. */
  readonly path?: string | undefined;
  /** The registry provider that served it, for a registry's invocation. */
  readonly provider?: string | undefined;
  /** The installed package that owns it, for an installed skill. */
  readonly owner?: string | undefined;
}

/**
 * What a host adds to the conversation when the user invokes a skill by name (`/skill name
 * args`): the rendered skill as instructions, with its provenance. `content` is the activation
 * block (`renderSkillContent`), then, when the user gave any, a line `ARGUMENTS: <args>`.
 */
export interface SkillInvocationContext {
  readonly kind: "skill-invocation";
  readonly name: string;
  readonly form: "instructions";
  readonly content: string;
  /** What the user typed after the name (trimmed; empty when nothing). */
  readonly args: string;
  readonly provenance: InvocationProvenance;
}

/** Why a skill the user named cannot be invoked. */
export type InvocationRefusalCode =
  | "skill_unavailable"
  | "skill_not_user_invocable"
  | "skill_changed";

/**
 * An invocation's answer: the context to hand the model, or why there is none —
 * `skill_unavailable` (no usable skill of that name now), `skill_not_user_invocable` (its author
 * said only the model starts it) or `skill_changed` (it changed since it was listed: list again).
 */
export type SkillInvocationResult =
  | { readonly ok: true; readonly invocation: SkillInvocationContext }
  | { readonly ok: false; readonly refusal: Diagnostic<InvocationRefusalCode> };

/**
 * The invocation context of a skill the user started by name: its activation block with the
 * user's arguments after it.
 * @example skillInvocationContext({ name: "deploy", content: body }, "staging", { source: "project" })
 */
export function skillInvocationContext(
  skill: SkillContentInput,
  args: string,
  provenance: InvocationProvenance,
): SkillInvocationContext {
  const given = args.trim();
  const block = renderSkillContent(skill);
  return {
    kind: "skill-invocation",
    name: skill.name,
    form: "instructions",
    content: given === "" ? block : `${block}\n\nARGUMENTS: ${given}`,
    args: given,
    provenance,
  };
}
