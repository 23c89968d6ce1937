import { basename, dirname } from "node:path";
import type { CollisionGroup } from "@skillshelf/collision";
import {
  type Diagnostic,
  type Environment,
  isInside,
  type PackageCopyRef,
  type ResourceKind,
  type ResourcePlace,
  type ResourceRoot,
} from "@skillshelf/core";
import { beginPass } from "@skillshelf/resources";
import type { PackageCopy, PackageSnapshot } from "@skillshelf/store";
import type { Availability } from "./types.js";

/** One resource file as the loaders judged it, before it becomes an inventory row. */
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
  /** Loaded and usable by the operator only (`disable-model-invocation`). */
  readonly operatorOnly: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

/** What the loaders admit, for every kind, over the roots `resources` reads. */
export interface Admission {
  readonly resources: readonly Admitted[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Judge every file a `resources` read pass over `snapshot` saw (the same roots, the same package
 * references checked, the same loads): a winner is `available` (or `untrusted`, or `unavailable`
 * when it cannot run), a collision loser `shadowed`, a file a loader refused `invalid`.
 */
export function admitResources(input: {
  readonly environment: Environment;
  readonly snapshot: PackageSnapshot;
  readonly trustImports: boolean;
}): Admission {
  const pass = beginPass(
    input.environment,
    { trustImports: input.trustImports, toolNames: undefined },
    input.snapshot,
  );
  const judged = [
    judge("skill", pass.roots("skill"), pass.owner, pass.skills(), {
      unavailable: (skill) =>
        skill.addressable ? undefined : "its name cannot be typed as /skill <name>",
      operatorOnly: (skill) => skill.disableModelInvocation,
    }),
    judge("prompt", pass.roots("prompt"), pass.owner, pass.prompts()),
    judge("agent", pass.roots("agent"), pass.owner, pass.agents()),
    judge("fleet", pass.roots("fleet"), pass.owner, pass.fleets()),
  ];
  return {
    resources: judged.flatMap((kind) => kind.resources),
    diagnostics: judged.flatMap((kind) => kind.diagnostics),
  };
}

// --- internal ---

type Item = ResourcePlace & { readonly name: string; readonly description?: string | undefined };

interface Loaded<T extends Item> {
  readonly items: T[];
  readonly diagnostics: Diagnostic[];
  readonly collisions: CollisionGroup<T>[];
}

function judge<T extends Item>(
  kind: ResourceKind,
  roots: readonly ResourceRoot[],
  owner: (item: { readonly owner?: PackageCopyRef | undefined }) => PackageCopy | undefined,
  loaded: Loaded<T>,
  rules: {
    readonly unavailable?: (item: T) => string | undefined;
    readonly operatorOnly?: (item: T) => boolean;
  } = {},
): Admission {
  // looked up per item: built once, so judging stays linear in the roots and items
  const rootsByOrigin = new Map<string, ResourceRoot>();
  for (const root of roots)
    if (!rootsByOrigin.has(root.origin)) rootsByOrigin.set(root.origin, root);
  const rootOf = (item: { readonly origin: string; readonly path: string }) =>
    rootsByOrigin.get(item.origin) ?? fallbackRoot(item);
  const findingsByPath = new Map<string, Diagnostic[]>();
  for (const diagnostic of loaded.diagnostics) {
    if (diagnostic.path === undefined) continue;
    const list = findingsByPath.get(diagnostic.path);
    if (list === undefined) findingsByPath.set(diagnostic.path, [diagnostic]);
    else list.push(diagnostic);
  }
  const findings = (path: string) => findingsByPath.get(path) ?? [];
  const resources: Admitted[] = [];
  const row = (item: T, availability: Availability, reason?: string): Admitted => ({
    kind,
    name: item.name,
    description: item.description ?? "",
    path: item.path,
    root: rootOf(item),
    owner: owner(item),
    trusted: item.trusted,
    availability,
    ...(reason === undefined ? {} : { reason }),
    operatorOnly: rules.operatorOnly?.(item) ?? false,
    diagnostics: findings(item.path),
  });
  for (const item of loaded.items) {
    const unavailable = item.unavailable ?? rules.unavailable?.(item);
    if (!item.trusted) resources.push(row(item, "untrusted", untrustedReason(rootOf(item))));
    else if (unavailable !== undefined) resources.push(row(item, "unavailable", unavailable));
    else resources.push(row(item, "available"));
  }
  for (const group of loaded.collisions)
    for (const loss of group.losers)
      resources.push(row(loss.item, "shadowed", `shadowed by ${group.winner.path}`));
  // a file the loader refused: an error on a markdown file that became no resource
  const seen = new Set(resources.map((resource) => resource.path));
  for (const diagnostic of loaded.diagnostics) {
    const path = diagnostic.path;
    if (diagnostic.severity !== "error" || path === undefined || !path.endsWith(".md")) continue;
    if (seen.has(path)) continue;
    seen.add(path);
    const root = rootHolding(roots, path) ?? fallbackRoot({ path });
    resources.push({
      kind,
      name:
        kind === "skill" && basename(path) === "SKILL.md"
          ? basename(dirname(path))
          : basename(path, ".md"),
      description: "",
      path,
      root,
      owner: owner(root),
      trusted: root.trust === "trusted",
      availability: "invalid",
      reason: diagnostic.code,
      operatorOnly: false,
      diagnostics: findings(path),
    });
  }
  return { resources, diagnostics: loaded.diagnostics };
}

/** The deepest root holding `path`. */
function rootHolding(roots: readonly ResourceRoot[], path: string): ResourceRoot | undefined {
  let best: ResourceRoot | undefined;
  for (const root of roots)
    if (isInside(root.path, path) && (best === undefined || root.path.length > best.path.length))
      best = root;
  return best;
}

function untrustedReason(root: ResourceRoot): string {
  return root.scope === "package"
    ? "a foreign package: trusted only with the trustImports setting"
    : "another agent's folder: discovery-only until imported";
}

/** A root for a file under none of the given ones (an explicit path). */
function fallbackRoot(item: { readonly path: string }): ResourceRoot {
  return {
    path: dirname(item.path),
    scope: "cli",
    source: "path",
    origin: "explicit",
    precedence: 0,
    trust: "trusted",
  };
}
