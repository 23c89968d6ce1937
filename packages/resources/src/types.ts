import type { SkillInvocationResult } from "@skillshelf/catalog-view";
import type {
  Diagnostic,
  Environment,
  EnvironmentInput,
  PackageCopyRef,
  PackageKind,
  ResourceKind,
  ResourceRoot,
} from "@skillshelf/core";
import type { LoadPromptTemplatesResult, PromptExpansion } from "@skillshelf/prompts-loader";
import type { AgentRecipe, FleetContract, LoadRecipesResult } from "@skillshelf/recipes-loader";
import type { LoadSkillsResult, Skill, SkillCache } from "@skillshelf/skills-loader";
import type { PackageCopy, PackageSnapshot } from "@skillshelf/store";
import type { PassRoots } from "./_pass.js";
import type { KindLoads } from "./kinds.js";

/** Options of `createResources`. */
export interface ResourcesOptions {
  /** Home, user library and variables; each read names its own `cwd`. Default: the process's. */
  readonly environment?: Omit<EnvironmentInput, "cwd" | "project"> | undefined;
  /**
   * Let `foreign` packages (Claude Code plugins) reach the model. One decision for every kind:
   * skills, prompt templates, agent recipes and fleet contracts alike. Default false.
   */
  readonly trustImports?: boolean | undefined;
  /** The skill cache the object keeps across reads. Default: one of its own. */
  readonly cache?: SkillCache | undefined;
  /** The host's tool names, against which `allowed-tools` is resolved. */
  readonly toolNames?: readonly string[] | undefined;
  /**
   * The folders each kind named is read from, instead of its default roots (the libraries and
   * every agent's folders); installed packages are read either way. `environment.host` is the
   * lighter way to say whose folders are the host's own.
   */
  readonly roots?: PassRoots | undefined;
  /**
   * What indexes offer, for `parsePendingSkillRequests` to say where a skill nothing installed has
   * can be installed from; read at the first such request of a call. Default: nothing offered
   * (`unknown`). `@skillshelf/sources` reads the library's indexes:
   * `offers: (environment) => discoverLibrary(environment).rows` — an edge of its own, so a host
   * that does not offer installs does not carry what fetches them.
   */
  readonly offers?: ((environment: Environment) => readonly OfferedRow[]) | undefined;
}

/** An index row offering a package, as `@skillshelf/sources` reads one (`IndexRow`). */
export interface OfferedRow {
  readonly kind: PackageKind;
  readonly name: string;
  readonly description: string;
  readonly sourceUrl: string;
  /** What the index calls itself. */
  readonly catalog: string;
  /** The resources a plugin row says it provides. */
  readonly provides?: readonly { readonly kind: string; readonly name: string }[] | undefined;
}

/** The loaders run over one set of roots, each kind at most once (see `beginPass`). */
export interface KindPass {
  /** The environment of the pass, `project` included. */
  readonly environment: Environment;
  /** The roots each kind is read from. */
  readonly roots: (kind: ResourceKind) => ResourceRoot[];
  /** What the kind's loader found: its winners, diagnostics and name clashes. */
  readonly load: <K extends ResourceKind>(kind: K) => KindLoads[K];
  /** Every file of every kind, judged: available, untrusted, unavailable, shadowed or invalid. */
  readonly admission: () => Admission;
}

/**
 * One read pass over the loose libraries and the enabled, valid, effective copies of one
 * package snapshot.
 */
export interface ReadPass extends KindPass {
  readonly snapshot: PackageSnapshot;
  /** What the snapshot found wrong (broken state, damaged or invalid copies), once per pass. */
  readonly diagnostics: readonly Diagnostic[];
  /** The installed copy a loaded resource comes from, `undefined` for a loose one. */
  readonly owner: (resource: {
    readonly owner?: PackageCopyRef | undefined;
  }) => PackageCopy | undefined;
}

/** Whether a resource file reaches the model or the operator, or why not. */
export type Availability = "available" | "untrusted" | "invalid" | "shadowed" | "unavailable";

/** One resource file as its loader judged it. */
export interface Admitted {
  readonly kind: ResourceKind;
  readonly name: string;
  readonly description: string;
  readonly path: string;
  readonly root: ResourceRoot;
  readonly owner: PackageCopy | undefined;
  readonly trusted: boolean;
  readonly availability: Availability;
  readonly reason?: string | undefined;
  /** The tools it is granted (a skill's `allowed-tools`, an agent's `tools`), as written. */
  readonly tools: readonly string[];
  /** Loaded and usable by the operator only (`disable-model-invocation`). */
  readonly operatorOnly: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

/** What the loaders admit, for every kind, over a pass's roots. */
export interface Admission {
  readonly resources: readonly Admitted[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Why a requested skill can or cannot be activated: `installable` when nothing installed has it
 * but an index offers it (`offer` says where from).
 */
export type SkillRequestReason =
  | "found"
  | "unknown"
  | "not-model-visible"
  | "not-user-invocable"
  | "disabled"
  | "installable";

/** Where a skill nothing installed has can be installed from: the index row that offers it. */
export interface SkillOffer {
  /** The package to install (`skill:<name>`, or a plugin that provides the skill). */
  readonly ref: string;
  readonly description: string;
  /** The source as the index writes it. */
  readonly sourceUrl: string;
  /** What the index calls itself (a marketplace's name, else its URL or path). */
  readonly catalog: string;
}

/** One skill a message asks for. */
export interface SkillRequest {
  readonly name: string;
  /** The skill, when it can be activated (`reason` is `found`). */
  readonly skill: Skill | undefined;
  readonly reason: SkillRequestReason;
  /** `command`: the operator typed `/skill <name>`; `suggestion`: a model's `Suggested skill:` line. */
  readonly via: "command" | "suggestion";
  /** For `installable`: where to install it from. */
  readonly offer?: SkillOffer | undefined;
}

/** The skills a message asks for, and the message without the line that asked. */
export interface PendingSkillRequests {
  readonly text: string;
  readonly requests: readonly SkillRequest[];
}

/** Counters of the work an object did, for hosts and tests. */
export interface ResourcesStats {
  /** Read passes begun, each with one package snapshot. */
  readonly passes: number;
  /** Installed trees digested over all passes. */
  readonly treesDigested: number;
}

/** How one read pass reads. */
export interface ReadOptions {
  readonly bodies?: boolean | undefined;
}

/** Everything the machine offers a host. Nothing in it is module-level. */
export interface Resources {
  /**
   * Begin one read pass from `cwd`: every kind reads the same snapshot. `bodies: true` keeps
   * every skill's body on its record (for a caller about to read them all, as `list --all`
   * does for identities), not only package-owned ones.
   */
  read(cwd: string, options?: ReadOptions): ReadPass;
  skills(cwd: string): LoadSkillsResult;
  prompts(cwd: string): LoadPromptTemplatesResult;
  /** Prompt templates to list: reuses the last verified snapshot of the project, if any. */
  promptsForDisplay(cwd: string): LoadPromptTemplatesResult;
  agents(cwd: string): LoadRecipesResult<AgentRecipe>;
  fleets(cwd: string): LoadRecipesResult<FleetContract>;
  /**
   * Expand `/name args` against a fresh pass (a drifted or disabled template never runs), or
   * `undefined`, without reading anything, when `text` is not a prompt command. A template from
   * another agent's folder is refused (`prompt_untrusted`).
   */
  expandPromptTemplate(text: string, cwd: string): PromptExpansion | undefined;
  /**
   * The skills a message asks for: an operator's `/skill <name> [args]` (then `text` is the args)
   * or a model's `Suggested skill: /skill a, /skill b` first line (then `text` is the rest of the
   * reply). Returns at once, reading nothing, when the message asks for none.
   */
  parsePendingSkillRequests(text: string, cwd: string): PendingSkillRequests;
  /**
   * The user invoked a skill by name (`/skill <name> [args]`): against a fresh pass, the skill's
   * rendered body as instructions-form context with its provenance
   * (`{ kind: "skill-invocation", name, form: "instructions", content, args, provenance }`), or
   * a coded refusal: `skill_unavailable` (none, untrusted or disabled), `skill_not_user_invocable`,
   * `skill_changed` (`listed`, the skill the host showed, is not the file that answers now).
   * `undefined`, reading nothing, when `text` is not a `/skill` command.
   */
  invokeSkill(
    text: string,
    cwd: string,
    options?: { readonly listed?: Skill | undefined },
  ): SkillInvocationResult | undefined;
  /** Drop every cache the object holds: the skill cache and the snapshots kept for display. */
  reload(): void;
  stats(): ResourcesStats;
}
