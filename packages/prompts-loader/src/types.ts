import type { CollisionGroup } from "@skillshelf/collision";
import type {
  CodesOf,
  Diagnostic,
  EnvironmentInput,
  ResourcePlace,
  ResourceRoot,
} from "@skillshelf/core";

/** One loaded prompt template. Only a trusted one expands unless the caller allows untrusted ones. */
export interface PromptTemplate extends ResourcePlace {
  /** Root-relative path without `.md`, folders joined by `:` (`team/review.md` → `team:review`). */
  readonly name: string;
  readonly description: string;
  /** The body after any frontmatter; empty when unavailable. */
  readonly content: string;
  readonly argumentHint?: string;
  /** `display-only: true`: invoking it shows its first fenced block and sends nothing to a model. */
  readonly displayOnly: boolean;
  /** sha256 of the file's bytes, when it could be read. */
  readonly hash?: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
}

/** Input of `loadPromptTemplates`; every field is optional. */
export interface LoadPromptTemplatesInput extends EnvironmentInput {
  /** Replaces the default roots (see `defaultPromptRoots`). */
  readonly roots?: readonly ResourceRoot[] | undefined;
  /** Let templates from `foreign` packages count as trusted. Default false. */
  readonly trustImports?: boolean | undefined;
}

/** The codes the loader can report: its own, the name-clash resolver's and core's. */
export type LoadPromptsCode = CodesOf<"prompts-loader" | "collision" | "core">;

/** What `loadPromptTemplates` returns. */
export interface LoadPromptTemplatesResult {
  /** One winner per name, sorted by name. */
  readonly items: PromptTemplate[];
  /** Every diagnostic, sorted by path, then code. */
  readonly diagnostics: Diagnostic<LoadPromptsCode>[];
  /** Names with more than one candidate: the winner and the losers, best first, with reasons. */
  readonly collisions: CollisionGroup<PromptTemplate>[];
}
