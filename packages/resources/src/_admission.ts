import { basename, dirname } from "node:path";
import {
  type Diagnostic,
  isInside,
  type PackageCopyRef,
  type ResourceKind,
  type ResourceRoot,
} from "@skillshelf/core";
import type { PackageCopy } from "@skillshelf/store";
import { KINDS, type KindItem } from "./kinds.js";
import type { Admission, Admitted, Availability, KindPass } from "./types.js";

/**
 * Judge every file of `kind` the pass saw (the same roots, the same package references checked,
 * the same load): a winner is `available` (or `untrusted`, or `unavailable` when it cannot run),
 * a collision loser `shadowed`, a file the loader refused `invalid`.
 */
export function judgeKind<K extends ResourceKind>(
  pass: KindPass,
  kind: K,
  owner: (item: { readonly owner?: PackageCopyRef | undefined }) => PackageCopy | undefined,
): Admission {
  const roots = pass.roots(kind);
  const loaded = pass.load(kind);
  const spec = KINDS[kind];
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
  const row = (item: KindItem<K>, availability: Availability, reason?: string): Admitted => ({
    kind,
    name: item.name,
    description: item.description ?? "",
    path: item.path,
    root: rootOf(item),
    owner: owner(item),
    trusted: item.trusted,
    availability,
    ...(reason === undefined ? {} : { reason }),
    tools: spec.tools?.(item) ?? [],
    operatorOnly: spec.operatorOnly?.(item) ?? false,
    diagnostics: findings(item.path),
  });
  for (const item of loaded.items) {
    const unavailable = item.unavailable ?? spec.unusable?.(item);
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
      tools: [],
      operatorOnly: false,
      diagnostics: findings(path),
    });
  }
  return { resources, diagnostics: loaded.diagnostics };
}

// --- internal ---

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
