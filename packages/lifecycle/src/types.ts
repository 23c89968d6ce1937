import type { AuditFinding, CodeParsers, Severity } from "@skillshelf/audit";
import type {
  Diagnostic,
  Environment,
  HintedDiagnostic,
  PackageKind,
  PackageScope,
  PackageSource,
} from "@skillshelf/core";
import type { Availability, InventoryCopyState } from "@skillshelf/inventory";
import type { LibraryDiscovery, StageOptions } from "@skillshelf/sources";
import type { CopyFacts, LockedPackage, PackageOrigin, ScopeCache } from "@skillshelf/store";
import type { SourceFetches, StagingSet } from "./_staging.js";
import type { CapabilityDiff } from "./capabilities.js";

/** What a plan can do to a package copy. */
export type Operation = "install" | "update" | "enable" | "disable" | "remove" | "rollback";

/** What to plan. */
export interface LifecycleRequest {
  readonly operation: Operation;
  readonly environment: Environment;
  /**
   * What the change is about: `kind:name` refs or ids; for `install` also a bare name from any
   * index, a local folder, a git URL or an archive URL.
   */
  readonly targets: readonly string[];
  /**
   * The scope to change. Default: for install, `defaultScope` (the project's inside a project, else
   * the user's); otherwise the project copy if there is one, else the user copy, else `defaultScope`.
   */
  readonly scope?: PackageScope | undefined;
  /** Replace an installed copy (install), or local changes (update). */
  readonly force?: boolean | undefined;
  /**
   * For an install from a folder or repository of skills with no manifest (a collection): the
   * skills to install, each as a `skill` package of its own (`*`: all of them). Without it a
   * collection of one skill installs that one, and one of several is refused
   * (`collection_choice_required`, the skills listed in its details).
   */
  readonly skills?: readonly string[] | undefined;
  /**
   * For a collection: look for skills in every layout and every folder at once, not only in the
   * first layout that holds some (what it passes over is counted in the plan's diagnostics).
   */
  readonly fullDepth?: boolean | undefined;
  /**
   * For an install from a repository whose marketplace lists plugins (`.claude-plugin/`,
   * `.agents/plugins/`, `.github/plugin/`): the plugins to install, each as a package of its own
   * (its skills, commands and agents), from its folder in the repository or the source listed.
   */
  readonly plugins?: readonly string[] | undefined;
  /**
   * For a collection install: refuse the whole plan when any chosen skill is refused. Without it
   * a refused skill (a name clash, a link out of the repository, content that does not validate)
   * is refused alone and the rest install.
   */
  readonly allOrNothing?: boolean | undefined;
  /** Stage unmet requirements as their own install steps, before their dependents. */
  readonly withRequirements?: boolean | undefined;
  /**
   * Keep what was staged even when the plan cannot be applied (a refused step's tree too), for a
   * caller that reads it (`preview`); it calls `releasePlan` itself.
   */
  readonly keepStaging?: boolean | undefined;
  /** Refuse any change to a scope's lock (CI). */
  readonly frozen?: boolean | undefined;
  /** Update to this ref instead of the recorded one. */
  readonly ref?: string | undefined;
  /** The indexes to resolve refs and requirements in. Default: the scopes' own indexes. */
  readonly discovery?: LibraryDiscovery | undefined;
  /** How sources are staged (temp folder, git environment, timeouts, archive limits). */
  readonly stage?: StageOptions | undefined;
  /** Reuse parses of unchanged scope files across plans and applies (`createScopeCache`). */
  readonly cache?: ScopeCache | undefined;
  /** Told before each source is staged. */
  readonly progress?: ((event: LifecycleProgress) => void) | undefined;
  /**
   * Fetches kept between the plans of one command (`createSourceFetches`): a collection refused
   * with `collection_choice_required` is kept there, and a plan made with the skills picked
   * takes it rather than fetching it again. The caller releases it after its last plan.
   */
  readonly fetches?: SourceFetches | undefined;
  /**
   * The parsers the audit reads code with; one object for all of a command's plans loads each
   * grammar once. Default: new ones per plan.
   */
  readonly codeParsers?: CodeParsers | undefined;
  /**
   * For an install or update: link each skill the package offers into these agents' folders of
   * the scope (`all`: every agent whose folder exists there) in the same step as the install, as
   * copies with `copy`. An install of a package the scope already holds exactly makes only the
   * links that are missing. `bare` copies leave the package's manifest out: the skill folder
   * already at a link's path, which the package is installed from, is taken as its copy (`adopt`).
   */
  readonly links?:
    | {
        readonly agents: readonly string[] | "all";
        readonly copy?: boolean;
        readonly bare?: boolean;
      }
    | undefined;
  /** How an install or update's audit judges what it stages. */
  readonly audit?: AuditRequest | undefined;
}

/**
 * What an install or update's audit refuses: findings at or above `threshold` (default `high`),
 * unless their rule is approved, by id, here or earlier for the same bytes.
 */
export interface AuditRequest {
  readonly threshold?: Severity | undefined;
  readonly approve?: readonly string[] | undefined;
}

/** What the audit of a step's staged tree found, as the plan shows it. */
export interface StepAudit {
  /** The rule table's version (`AUDIT_RULES_VERSION`). */
  readonly rules: string;
  readonly files: number;
  readonly threshold: Severity;
  readonly highest?: Severity | undefined;
  readonly findings: readonly AuditFinding[];
  /** The rules found at or above the threshold that are approved. */
  readonly approved: readonly string[];
  /** Files not read whole (too large, not a regular file, unreadable). */
  readonly unread: readonly { readonly code: string; readonly path: string }[];
  /**
   * Not audited here: the verdict carried with these bytes (a bundle's, signed by a key the
   * policy names) was taken; who signed it (`ssh:SHA256:…`). `files` and `findings` are then empty.
   */
  readonly carriedBy?: string | undefined;
}

/**
 * A link a step makes into an agent's folder (reviewed like `planLinks`' steps), or takes away
 * (`unlink`: a removed or disabled package's; an enabled one's come back).
 */
export interface StepLink {
  readonly operation?: "unlink" | undefined;
  readonly agent: string;
  /** The other agents asked for that read the same folder: this one link serves them too. */
  readonly alsoFor?: readonly string[] | undefined;
  /** The link's key in the scope's state and lock, relative to the scope's folder. */
  readonly key: string;
  /** Where the skill will be once installed. */
  readonly target: string;
  readonly copy: boolean;
  /** A copy without the package's manifest (`LifecycleRequest.links`). */
  readonly bare?: true | undefined;
  /** Already as asked. */
  readonly inPlace: boolean;
}

/** Why a step will not be applied: a code from the catalogue, what happened and what to do next. */
export interface Refusal extends HintedDiagnostic {
  /**
   * It refuses its own step only (one skill of a collection): the plan's other steps still
   * apply, unless the request asked for all or nothing.
   */
  readonly alone?: true | undefined;
  /**
   * What it refuses was never a skill to install (a `SKILL.md` linking to nothing, or with no
   * frontmatter), met by a pick of every skill: said, but not a failure of the command.
   */
  readonly skipped?: true | undefined;
}

/** The reviewed facts of one copy: the writer checks them again inside its lock. */
export interface ReviewedFact {
  readonly scope: PackageScope;
  readonly id: string;
  readonly facts: CopyFacts;
}

/** A package source staged for a step: where its files are now and what they digest to. */
export interface StepSource {
  readonly source: PackageSource;
  readonly dir: string;
  readonly digest: string;
  readonly origin: PackageOrigin;
}

/** One step of a plan: one operation on one copy. */
export interface PlanStep {
  readonly operation: Operation;
  /** `kind:id`. */
  readonly ref: string;
  readonly id: string;
  readonly kind: PackageKind;
  readonly scope: PackageScope;
  readonly version?: string | undefined;
  readonly source?: StepSource | undefined;
  /** For an install: whether the copy is enabled afterwards (a restore sets what the lock says). */
  readonly enabled?: boolean | undefined;
  /** The writer's own copy first, then the peer scope's copy when that scope's folder exists. */
  readonly expected: readonly ReviewedFact[];
  readonly requires: readonly string[];
  /** Loadable dependents that this change would leave with a requirement unmet, and those already broken. */
  readonly dependents: {
    readonly newlyBroken: readonly {
      readonly ref: string;
      readonly scope: PackageScope;
      readonly missing: readonly string[];
    }[];
    readonly preexisting: readonly string[];
  };
  /** Which copy counts for the id afterwards, and whether it is loadable. */
  readonly effectiveAfter: { readonly scope: PackageScope; readonly loadable: boolean } | null;
  /** What the change reveals or leaves in place, in words. */
  readonly note?: string | undefined;
  /** What happens to files if something goes wrong, in words. */
  readonly recovery: string;
  /** What an update changes in what a model is given. */
  readonly capabilities?: CapabilityDiff | undefined;
  /** The step's entry in its scope's lock before and after. */
  readonly lock: { readonly before: LockedPackage | null; readonly after: LockedPackage | null };
  /**
   * For an install or update: whether the package's skills will be given to a model once it is
   * in, and when not, why and what would change it.
   */
  readonly model?:
    | { readonly given: boolean; readonly reason?: string; readonly next?: string }
    | undefined;
  /** For an install or update: what the audit of the staged tree found. */
  readonly audit?: StepAudit | undefined;
  /** The links an install or update makes in the same step (`LifecycleRequest.links`). */
  readonly links?: readonly StepLink[] | undefined;
  readonly refusal?: Refusal | undefined;
}

/** A reviewed plan: data (canonical JSON), plus the staged sources it owns (not part of the data). */
export interface LifecyclePlan {
  readonly version: 1;
  /** 16 hex digits. */
  readonly id: string;
  readonly createdAt: string;
  readonly project: string;
  /** The folders the plan was made in (never the environment variables). */
  readonly environment: {
    readonly cwd: string;
    readonly project: string;
    readonly home: string;
    readonly configDir: string;
  };
  readonly request: {
    readonly operation: Operation | "restore";
    readonly targets: readonly string[];
    readonly scope?: PackageScope | undefined;
    readonly force: boolean;
    readonly withRequirements: boolean;
    readonly frozen: boolean;
    readonly allOrNothing: boolean;
    readonly ref?: string | undefined;
    readonly skills?: readonly string[] | undefined;
    readonly plugins?: readonly string[] | undefined;
    readonly links?: LifecycleRequest["links"];
    readonly audit?: AuditRequest | undefined;
  };
  readonly steps: readonly PlanStep[];
  /** Some step applies and no refusal stops the plan (a refusal `alone` stops only its step, without `allOrNothing`). */
  readonly applicable: boolean;
  readonly diagnostics: readonly Diagnostic[];
  /** The staged sources (not enumerable: not part of the plan's data); `releasePlan` releases them. */
  readonly staging: StagingSet;
}

/** What a committed step reads back as. */
export interface StepVerification {
  readonly evidence: "pre-refresh" | "post-refresh";
  readonly tree: "present" | "absent" | "changed";
  readonly record: "recorded" | "absent" | "unreadable";
  readonly copy: InventoryCopyState | "absent";
  readonly resources: readonly {
    readonly kind: string;
    readonly name: string;
    readonly availability: Availability;
  }[];
  /** The copy that counts for the id now, if any. */
  readonly effective: { readonly scope: PackageScope; readonly loadable: boolean } | null;
  /** The read-back matched what the step should have done. */
  readonly ok: boolean;
}

/** The codes an outcome's error can carry. */
export type OutcomeErrorCode = "stale_plan" | "locked" | "refused" | "verification" | "writer";

/** What happened to one step. */
export interface StepOutcome {
  /** `skipped`: refused as what was never a skill (`Refusal.skipped`), which is no failure. */
  readonly status: "committed" | "failed" | "refused" | "skipped" | "unattempted";
  readonly step: Pick<PlanStep, "operation" | "ref" | "id" | "kind" | "scope">;
  readonly verification?: StepVerification | undefined;
  /** Where changed files were kept. */
  readonly recovery?: { readonly packageBackup?: string | undefined } | undefined;
  readonly diagnostics: readonly Diagnostic[];
  /**
   * Why it did not commit cleanly, as a finding: its `hint` says what to do next, its `details`
   * the underlying `cause` (`dependents`, `digest_mismatch`, …) and, for `stale_plan`, the fact
   * that `changed`.
   */
  readonly error?: (HintedDiagnostic & { readonly code: OutcomeErrorCode }) | undefined;
}

/** A host refresh: what the caller's runtime did after the commits. */
export type RefreshResult =
  | { readonly status: "refreshed" }
  | { readonly status: "failed"; readonly error: string }
  | { readonly status: "not-applicable"; readonly reason: string };

/** What `applyLifecycle` did. */
export interface ApplyResult {
  readonly planId: string;
  readonly outcomes: readonly StepOutcome[];
  readonly committed: number;
  readonly skipped: number;
  readonly failed: number;
  readonly refused: number;
  readonly unattempted: number;
  readonly refresh: RefreshResult;
}

/**
 * What long work a plan or an apply is doing now, for a caller that shows progress: staging a
 * source (cloning, downloading or copying it, then digesting it), or applying step `index`
 * (0-based) of `count`.
 */
export type LifecycleProgress =
  | { readonly phase: "stage"; readonly source: string }
  | {
      readonly phase: "apply";
      readonly ref: string;
      readonly index: number;
      readonly count: number;
    };

/** Options of `applyLifecycle`. */
export interface ApplyOptions {
  /** Told before each step is applied. */
  readonly progress?: ((event: LifecycleProgress) => void) | undefined;
  /** Tell the host to reload (called once, after the commits, only if something committed). */
  readonly refresh?: (() => void | Promise<void>) | undefined;
  /** Reuse parses of unchanged scope files (`createScopeCache`), as the plan's request may. */
  readonly cache?: ScopeCache | undefined;
  /**
   * Stops the apply before its next step (Ctrl-C): what committed stays, the rest is
   * `unattempted`; a step being written is never cut short.
   */
  readonly signal?: AbortSignal | undefined;
}

/** One thing trusted: its key in the scope's `trust.json`, its folder, and the digest it is bound to. */
export interface TrustedItem {
  readonly key: string;
  readonly path: string;
  readonly digest: string;
  readonly agent?: string | undefined;
  readonly audit: StepAudit;
}

/** What `trust` did: each thing trusted, or why nothing was (every item is audited first). */
export type TrustResult =
  | {
      readonly trusted: readonly TrustedItem[];
      /** What was named but could not be trusted alone (a server's entry that cannot be pinned). */
      readonly skipped?: readonly Diagnostic[] | undefined;
    }
  | { readonly refusal: Refusal; readonly audit?: StepAudit | undefined };
