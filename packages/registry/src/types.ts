import type { ResourceBase, SkillInvocationResult } from "@skillshelf/catalog-view";
import type { Diagnostic } from "@skillshelf/core";

/** Who may start a skill: the model on its own, the user by name. */
export interface SkillInvocation {
  readonly modelInvocable: boolean;
  readonly userInvocable: boolean;
}

/** What a host may show about a skill without loading it. */
export interface SkillSummary {
  /** Kebab case: lowercase letters and digits in hyphen-separated groups. */
  readonly name: string;
  readonly path?: string | undefined;
  readonly description: string;
  readonly whenToUse?: string | undefined;
  readonly invocation: SkillInvocation;
  /** Where it comes from, for display only; precedence is `rank`'s business. */
  readonly source: string;
  /** The name of the provider that owns it. */
  readonly provider: string;
  readonly resourceBase?: ResourceBase | undefined;
}

/** A provider's offer of a skill: a summary, a rank (lower wins) and a locator handed back to `get`. */
export interface SkillCandidate extends SkillSummary {
  readonly rank: number;
  readonly locator: unknown;
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
}

/** A loaded skill: its summary and body. */
export interface SkillDefinition extends SkillSummary {
  readonly content: string;
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
}

/** A provider's answer to `list`, saying whether it found everything it knows of. */
export interface ProviderObservation {
  readonly candidates: readonly SkillCandidate[];
  readonly complete: boolean;
  /** What the provider found wrong while listing (a file that does not load, say): reported with the read's. */
  readonly diagnostics?: readonly Diagnostic[] | undefined;
}

/** What the registry passes to a provider call. */
export interface ProviderCallOptions {
  readonly cwd: string;
  /** Aborted when the caller gives up; a cooperative provider stops. */
  readonly signal: AbortSignal;
}

type MaybePromise<T> = T | Promise<T>;

/** One source of skills: local folders, a remote service, a bundle. */
export interface SkillProvider {
  readonly name: string;
  list(options: ProviderCallOptions): MaybePromise<readonly SkillCandidate[] | ProviderObservation>;
  /** The full definition, or `undefined` when the candidate can no longer be loaded. */
  get(
    candidate: SkillCandidate,
    options: ProviderCallOptions,
  ): MaybePromise<SkillDefinition | undefined>;
}

/** Handed to a provider's factory: its registration's signal and a way to say its skills changed. */
export interface ProviderControl {
  /** Aborted when the registration fails or is disposed. */
  readonly signal: AbortSignal;
  /** Drop cached catalogs and tell listeners; does nothing once this registration is gone. */
  invalidate(): void;
}

/** A viewing scope, for example one agent preset; its layer sits nearer than its parent's. */
export interface RegistryScope {
  readonly id: string;
  readonly parent?: RegistryScope | undefined;
}

/** A skill registered directly, served by the reserved `runtime` provider. */
export interface RuntimeSkill {
  readonly name: string;
  readonly description: string;
  readonly content: string;
  readonly whenToUse?: string | undefined;
  /** Omitted flags are `true`. */
  readonly invocation?: Partial<SkillInvocation> | undefined;
  readonly source?: string | undefined;
  readonly path?: string | undefined;
  readonly resourceBase?: ResourceBase | undefined;
  /** Default 250: after project folders, before user folders. */
  readonly rank?: number | undefined;
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
}

/** Options of every read. */
export interface ReadOptions {
  /** The workspace the read is for. Default: the process's folder. */
  readonly cwd?: string | undefined;
  readonly signal?: AbortSignal | undefined;
  /** The viewing scope; its chain of layers is merged over the global one. */
  readonly scope?: RegistryScope | undefined;
}

/** Options of `invoke`. */
export interface InvokeOptions extends ReadOptions {
  /** What the user typed after the skill's name. */
  readonly args?: string | undefined;
  /**
   * The summary the host listed and the user picked: when another skill (or another version of
   * it) answers the name now, the invocation is refused with `skill_changed`.
   */
  readonly listed?: SkillSummary | undefined;
}

/** A candidate that lost its name to another. */
export interface ShadowedSkill {
  readonly name: string;
  readonly winner: SkillSummary;
  readonly loser: SkillSummary;
  /** `layer`: a nearer layer had the name; `rank`: a lower rank won; `order`: an earlier registration or list position won. */
  readonly reason: "layer" | "rank" | "order";
}

/** What `snapshot` returns. */
export interface RegistrySnapshot {
  /** The winners, sorted by name. */
  readonly skills: readonly SkillSummary[];
  /** Every provider answered completely and nothing changed during the read. */
  readonly complete: boolean;
  readonly shadowed: readonly ShadowedSkill[];
  /** Provider failures and shadowing warnings of this read. */
  readonly diagnostics: readonly Diagnostic[];
}

/** A change listeners hear about. */
export interface RegistryChange {
  readonly type:
    | "provider-registered"
    | "provider-disposed"
    | "runtime-registered"
    | "runtime-disposed"
    | "invalidated";
  readonly name: string;
  readonly revision: number;
}

/** Options of `createSkillRegistry`. */
export interface RegistryConfig {
  /** Completed catalogs kept, least recently used dropped first. Default 128; a positive integer. */
  readonly cacheSize?: number | undefined;
  /**
   * A provider answering slower than this fails for that read, the others answering; until that
   * list settles, later reads skip the provider without waiting again. Default 10,000 ms.
   */
  readonly providerTimeoutMs?: number | undefined;
  /** Hears every diagnostic, including those outside a read (a duplicate registration, a failing listener). */
  readonly onDiagnostic?: ((diagnostic: Diagnostic) => void) | undefined;
}

/** The registry. */
export interface SkillRegistry {
  registerProvider(
    create: (control: ProviderControl) => SkillProvider,
    options?: { readonly scope?: RegistryScope },
  ): () => void;
  register(skill: RuntimeSkill, options?: { readonly scope?: RegistryScope }): () => void;
  list(options?: ReadOptions): Promise<SkillSummary[]>;
  snapshot(options?: ReadOptions): Promise<RegistrySnapshot>;
  get(name: string, options?: ReadOptions): Promise<SkillDefinition | undefined>;
  /**
   * The user invoked `name` explicitly (`/skill name args`): the winner's rendered body as
   * instructions-form context with its provenance, or a coded refusal. Never throws for a skill
   * that cannot be invoked; an abort of the caller's signal still throws.
   */
  invoke(name: string, options?: InvokeOptions): Promise<SkillInvocationResult>;
  onChange(listener: (change: RegistryChange) => void | Promise<void>): () => void;
}
