import type {
  Diagnostic,
  Environment,
  PackageKind,
  PackageScope,
  ResourceKind,
  Scope,
} from "@skillshelf/core";
import type { Availability } from "@skillshelf/resources";
import type { LibraryDiscovery } from "@skillshelf/sources";
import type { PackageSnapshot } from "@skillshelf/store";
import type { InventoryLimits } from "./limits.js";
import type { Origin, OriginFormat } from "./origin.js";

/** Where an installed copy stands (first match wins; see `copyState`). */
export type InventoryCopyState =
  | "loadable"
  | "incompatible"
  | "damaged"
  | "invalid"
  | "disabled"
  | "shadowed";

/** Whether the loaders admit a resource, and if not, why. */
export type { Availability };

/** Who the inventory is for: the operator sees everything; a model only what it may use. */
export type Audience = "operator" | "model";

/** The class of place a resource was found in. */
export type SourceClass = "package" | "user" | "project" | "agent" | "explicit";

/** One package an index offers, or one installed with no index row. */
export interface InventoryPackage {
  /** `kind:name`. */
  readonly ref: string;
  readonly kind: PackageKind;
  readonly name: string;
  readonly description: string;
  readonly version?: string | undefined;
  readonly sha256?: string | undefined;
  readonly sourceUrl?: string | undefined;
  readonly requires: readonly string[];
  readonly origin: Origin;
  readonly format: OriginFormat;
  /** `index` for a row an index offers, `installed` for a copy no index offers. */
  readonly listedBy: "index" | "installed";
  readonly provides?: readonly { readonly kind: ResourceKind; readonly name: string }[];
  readonly copies: readonly { readonly scope: PackageScope; readonly state: InventoryCopyState }[];
}

/** One installed copy. */
export interface InventoryCopy {
  readonly ref: string;
  readonly id: string;
  readonly kind: PackageKind | undefined;
  readonly scope: PackageScope;
  readonly dir: string | undefined;
  readonly version: string | undefined;
  readonly state: InventoryCopyState;
  readonly enabled: boolean;
  readonly valid: boolean;
  readonly effective: boolean;
  readonly loadable: boolean;
  readonly trust: "trusted" | "foreign" | undefined;
  readonly overriddenBy?: PackageScope | undefined;
  readonly origin: Origin;
  readonly format: OriginFormat;
  readonly recordedDigest?: string | undefined;
  readonly observedDigest?: string | undefined;
  readonly installedAt?: string | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/** One resource as the loaders see it. Never a body. */
export interface InventoryResource {
  /** `kind:name@sourceId#relativePath` (see `resourceKey`). */
  readonly key: string;
  readonly kind: ResourceKind;
  /** The name it is called by. */
  readonly name: string;
  readonly description: string;
  /** How an operator calls it, for an available skill or prompt template. */
  readonly invocation?: string | undefined;
  /** The file; left out for a model when it lies outside the project and home. */
  readonly path?: string | undefined;
  readonly source: { readonly class: SourceClass; readonly id: string; readonly scope: Scope };
  readonly owner?:
    | { readonly id: string; readonly scope: PackageScope; readonly kind: PackageKind | undefined }
    | undefined;
  readonly origin: Origin;
  readonly format: OriginFormat;
  readonly availability: Availability;
  readonly reason?: string | undefined;
  readonly trusted: boolean;
  /** A model may use it: available, trusted and not operator-only. */
  readonly modelInvocable: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

/** What to read and for whom. */
export interface InventoryInput {
  readonly environment: Environment;
  /** The offered packages (`sources`' `discoverLibrary`). Default: the scopes' own indexes. */
  readonly discovery?: LibraryDiscovery | undefined;
  /** A snapshot already read in this pass. Default: read one. */
  readonly snapshot?: PackageSnapshot | undefined;
  readonly audience?: Audience | undefined;
  /** Let foreign packages' resources count as trusted, as `resources` does. Default false. */
  readonly trustImports?: boolean | undefined;
  /** Filters, applied before the caps. */
  readonly filter?: InventoryFilter | undefined;
  /** Which sections to read. Default: all three. */
  readonly include?:
    | {
        readonly packages?: boolean | undefined;
        readonly copies?: boolean | undefined;
        readonly resources?: boolean | undefined;
      }
    | undefined;
  /** Smaller caps (never larger than `INVENTORY_LIMITS`). */
  readonly limits?: Partial<InventoryLimits> | undefined;
}

/** What narrows an inventory. Every given filter must match. */
export interface InventoryFilter {
  /** Package kinds match packages, copies and owned resources; resource kinds match resources and the packages providing them. */
  readonly kinds?: readonly (PackageKind | ResourceKind)[] | undefined;
  /** Matched with the one lexical matcher over names and descriptions. */
  readonly query?: string | undefined;
  /** A package ref (`kind:name`), a resource key, or a bare name. */
  readonly ref?: string | undefined;
  readonly sources?: readonly SourceClass[] | undefined;
}

/** The inventory: three separate facts, each bounded. */
export interface Inventory {
  readonly version: 1;
  readonly audience: Audience;
  readonly project: string;
  readonly packages: readonly InventoryPackage[];
  readonly copies: readonly InventoryCopy[];
  readonly resources: readonly InventoryResource[];
  readonly diagnostics: readonly Diagnostic[];
  /** A section that hit its cap; the rows past it were not kept. */
  readonly truncated: {
    readonly packages: boolean;
    readonly copies: boolean;
    readonly resources: boolean;
    readonly diagnostics: boolean;
  };
}
