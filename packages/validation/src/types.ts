import type { Diagnostic, EnvironmentInput, ResourceKind } from "@skillshelf/core";
import type { FleetPrerequisite } from "@skillshelf/recipes-loader";
import type { SkillCache } from "@skillshelf/skills-loader";
import type { IndexRow } from "@skillshelf/sources";
import type { PackageManifest } from "@skillshelf/store";

/** Lenient: what an agent accepts. Strict: the Agent Skills specification, for authors. */
export type ValidationMode = "lenient" | "strict";

/** One resource found while validating, never with its body. */
export interface ValidatedResource {
  readonly kind: ResourceKind;
  readonly name: string;
  /** Relative to the package (`/` separated) when validating a package; absolute otherwise. */
  readonly path: string;
  /** The manifest component (`kind:id`) that declares it, if any. */
  readonly componentRef?: string | undefined;
  readonly description?: string | undefined;
  readonly valid: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

/** Every validator's result: data, never printed. */
export interface ValidationResult {
  /** No error-severity diagnostic. */
  readonly valid: boolean;
  /** Every finding, sorted by path, then code. */
  readonly diagnostics: readonly Diagnostic[];
  readonly resources: readonly ValidatedResource[];
  /** What fleets need that the validated content does not provide (agents, host commands). */
  readonly prerequisites: readonly FleetPrerequisite[];
}

/** `validatePackage`'s result: the manifest too. */
export interface PackageValidation extends ValidationResult {
  readonly manifestValid: boolean;
  readonly manifest: PackageManifest | undefined;
}

/** `validateIndex`'s result: the rows that were kept too. */
export interface IndexValidation extends ValidationResult {
  readonly format: "library" | "marketplace";
  readonly rows: readonly IndexRow[];
}

/** Options every validator takes. */
export interface ValidateOptions {
  /** Default `lenient`. */
  readonly mode?: ValidationMode | undefined;
  /** With `strict`, skill keys outside the specification are errors, not warnings. */
  readonly strictKeys?: boolean | undefined;
  /** Home and working folder the loaders resolve against; never read for discovery. */
  readonly environment?: EnvironmentInput | undefined;
  /**
   * The tree was digested already (a staged source): its links and file types are not checked
   * again. Default false.
   */
  readonly treeDigested?: boolean | undefined;
  /** The manifest already read from this folder (a staged package's): it is not read again. */
  readonly manifest?: PackageManifest | undefined;
  /** The skills loader's cache to read the package's skills through (one that read them already). */
  readonly skillCache?: SkillCache | undefined;
}
