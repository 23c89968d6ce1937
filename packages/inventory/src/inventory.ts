import { basename } from "node:path";
import {
  copyKey,
  createDiagnostic,
  type Diagnostic,
  type Environment,
  identityKey,
  isInside,
  isSearchable,
  matchLexical,
  type PackageKind,
  parseLexicalQuery,
  parseRequirementRef,
  RESOURCE_KINDS,
  sortDiagnostics,
} from "@skillshelf/core";
import { type Admitted, beginPass, KINDS } from "@skillshelf/resources";
import { discoverLibrary, type IndexRow } from "@skillshelf/sources";
import { type PackageCopy, readPackageSnapshot } from "@skillshelf/store";
import { copyState } from "./copy-state.js";
import { boundedList, clip, effectiveLimits, type InventoryLimits } from "./limits.js";
import { classifyOrigin, type Origin } from "./origin.js";
import { parseResourceKey, resourceKey } from "./resource-key.js";
import type {
  Audience,
  Inventory,
  InventoryCopy,
  InventoryCopyState,
  InventoryFilter,
  InventoryInput,
  InventoryPackage,
  InventoryResource,
  SourceClass,
} from "./types.js";

/**
 * Read the inventory: three separate, body-free facts — the
 * packages the indexes offer (and installed ones no index offers), the copies installed in both
 * scopes, and the resources the loaders actually admit from them — each bounded by
 * `INVENTORY_LIMITS` while it is built, filters applied first. It never fetches, runs, reloads or
 * writes anything. For a model audience only usable resources are listed, and no path outside the
 * project and home is shown.
 */
export function readInventory(input: InventoryInput): Inventory {
  const { environment } = input;
  const audience = input.audience ?? "operator";
  const limits = effectiveLimits(input.limits);
  const include = { packages: true, copies: true, resources: true, ...input.include };
  const snapshot = input.snapshot ?? readPackageSnapshot(environment);
  const filter = compileFilter(input.filter);
  const show = pathShower(environment, audience);
  const found: Diagnostic[] = [...snapshot.diagnostics];

  const resources = boundedList<InventoryResource>(limits.resources);
  // the copies owning the resources a resource key names: the key finds its package too
  const owners = new Map<string, PackageKind | undefined>();
  if (include.resources || filter.byKey) {
    const admission = beginPass(environment, {
      snapshot,
      trustImports: input.trustImports ?? false,
    }).admission();
    found.push(...admission.diagnostics);
    const rows = admission.resources
      .map((admitted) => resourceRow(admitted, environment, limits, show))
      .filter((row) => audience === "operator" || row.modelInvocable)
      .filter((row) => filter.resource(row))
      .sort(byResourceOrder);
    for (const row of rows)
      if (row.owner !== undefined) owners.set(copyKey(row.owner), row.owner.kind);
    if (include.resources) for (const row of rows) if (!resources.push(row)) break;
  }

  const copies = boundedList<InventoryCopy>(limits.copies);
  if (include.copies)
    for (const copy of snapshot.copies) {
      const row = copyRow(copy, limits, show);
      if (filter.copy(row, owners) && !copies.push(row)) break;
    }

  const packages = boundedList<InventoryPackage>(limits.packages);
  if (include.packages) {
    const discovery = input.discovery ?? discoverLibrary(environment);
    found.push(...discovery.diagnostics);
    for (const row of packageRows(discovery.rows, snapshot.copies, limits, show))
      if (filter.package(row, owners) && !packages.push(row)) break;
  }

  const diagnostics = boundedList<Diagnostic>(limits.diagnostics);
  for (const [section, list] of [
    ["packages", packages],
    ["copies", copies],
    ["resources", resources],
  ] as const)
    if (list.truncated)
      diagnostics.push(
        createDiagnostic(
          "info",
          "inventory_truncated",
          `only the first ${list.items.length} ${section} are listed`,
          { details: { section, cap: list.items.length } },
        ),
      );
  if (audience === "operator")
    for (const diagnostic of sortDiagnostics(found))
      if (!diagnostics.push(clipDiagnostic(diagnostic, limits))) break;

  // findings name files anywhere; a model is given none of them
  const quiet = <T extends { readonly diagnostics: readonly Diagnostic[] }>(rows: readonly T[]) =>
    audience === "operator" ? rows : rows.map((row) => ({ ...row, diagnostics: [] }));
  return {
    version: 1,
    audience,
    project: environment.project,
    packages: packages.items,
    copies: quiet(copies.items),
    resources: quiet(resources.items),
    diagnostics: diagnostics.items,
    truncated: {
      packages: packages.truncated,
      copies: copies.truncated,
      resources: resources.truncated,
      diagnostics: diagnostics.truncated,
    },
  };
}

/** One copy as an inventory row (also what `inspectCopy` returns). */
export function copyRow(
  copy: PackageCopy,
  limits: InventoryLimits,
  show: (path: string) => string = (path) => path,
): InventoryCopy {
  const kind = copy.manifest?.kind ?? copy.record?.kind;
  const classified =
    copy.record === undefined
      ? {
          origin: { kind: "local", path: show(copy.dir) } as Origin,
          format: copy.manifest?.format ?? "skillshelf",
        }
      : classifyOrigin({ kind: "record", record: copy.record });
  return {
    ref: `${kind ?? "plugin"}:${copy.id}`,
    id: copy.id,
    kind,
    scope: copy.scope,
    dir: show(copy.dir),
    version: copy.record?.version ?? copy.manifest?.version,
    state: copyState(copy),
    enabled: copy.enabled,
    valid: copy.valid,
    effective: copy.effective,
    loadable: copy.loadable,
    trust: copy.record?.trust,
    ...(copy.overriddenBy === undefined ? {} : { overriddenBy: copy.overriddenBy }),
    origin: showOrigin(classified.origin, show),
    format: classified.format,
    ...(copy.record === undefined ? {} : { recordedDigest: copy.record.contentDigest }),
    ...(copy.observedDigest === undefined ? {} : { observedDigest: copy.observedDigest }),
    ...(copy.record === undefined ? {} : { installedAt: copy.record.installedAt }),
    diagnostics: copy.diagnostics
      .slice(0, limits.copyDiagnostics)
      .map((diagnostic) => clipDiagnostic(diagnostic, limits)),
  };
}

/** The folders a resource key's path is made relative to, nearest first. */
function keyAnchors(
  environment: Environment,
  resource: { readonly owner?: { readonly dir: string } | undefined; readonly scope: string },
): string[] {
  const library =
    resource.scope === "user" ? environment.configDir : `${environment.project}/.skillshelf`;
  return [
    ...(resource.owner === undefined ? [] : [resource.owner.dir]),
    library,
    environment.project,
    environment.home,
  ];
}

// --- internal ---

function resourceRow(
  admitted: Admitted,
  environment: Environment,
  limits: InventoryLimits,
  show: (path: string) => string,
): InventoryResource {
  const { root, owner } = admitted;
  const sourceClass: SourceClass =
    root.scope === "package"
      ? "package"
      : root.source === "path"
        ? "explicit"
        : root.source === "skillshelf"
          ? root.scope === "user"
            ? "user"
            : "project"
          : "agent";
  const classified =
    owner?.record !== undefined
      ? classifyOrigin({ kind: "record", record: owner.record })
      : classifyOrigin({ kind: "root", root });
  const available = admitted.availability === "available";
  const invocation = available ? KINDS[admitted.kind].invocation?.(admitted.name) : undefined;
  const scope = owner?.scope ?? root.scope;
  const path = show(admitted.path);
  return {
    key: resourceKey(
      { kind: admitted.kind, name: admitted.name, sourceId: root.origin, path: admitted.path },
      keyAnchors(environment, { owner, scope }),
    ),
    kind: admitted.kind,
    name: admitted.name,
    description: clip(admitted.description, limits.description),
    ...(invocation === undefined ? {} : { invocation }),
    ...(path === "" ? {} : { path }),
    source: { class: sourceClass, id: root.origin, scope: root.scope },
    ...(owner === undefined
      ? {}
      : { owner: { id: owner.id, scope: owner.scope, kind: owner.manifest?.kind } }),
    origin: showOrigin(classified.origin, show),
    format: classified.format,
    availability: admitted.availability,
    ...(admitted.reason === undefined ? {} : { reason: admitted.reason }),
    trusted: admitted.trusted,
    modelInvocable: available && admitted.trusted && !admitted.operatorOnly,
    diagnostics: admitted.diagnostics
      .slice(0, limits.resourceDiagnostics)
      .map((diagnostic) => clipDiagnostic(diagnostic, limits)),
  };
}

/** Index rows, then installed packages no row offers, sorted by ref. */
function packageRows(
  rows: readonly IndexRow[],
  copies: readonly PackageCopy[],
  limits: InventoryLimits,
  show: (path: string) => string,
): InventoryPackage[] {
  // each ref's copies, gathered once: a lookup per row, not a scan of every copy
  const byRef = new Map<string, { scope: PackageCopy["scope"]; state: InventoryCopyState }[]>();
  for (const copy of copies) {
    const ref = `${copy.manifest?.kind ?? copy.record?.kind}:${copy.id}`;
    const row = { scope: copy.scope, state: copyState(copy) };
    const list = byRef.get(ref);
    if (list === undefined) byRef.set(ref, [row]);
    else list.push(row);
  }
  const copiesOf = (kind: string, name: string) => byRef.get(identityKey(kind, name)) ?? [];
  const listed: InventoryPackage[] = rows.map((row) => {
    const classified = classifyOrigin({ kind: "row", row });
    return {
      ref: identityKey(row.kind, row.name),
      kind: row.kind,
      name: row.name,
      description: clip(row.description, limits.description),
      ...(row.version === undefined ? {} : { version: row.version }),
      ...(row.sha256 === undefined ? {} : { sha256: row.sha256 }),
      sourceUrl: row.sourceUrl,
      requires: row.requires,
      origin: showOrigin(classified.origin, show),
      format: classified.format,
      listedBy: "index",
      ...(row.provides === undefined
        ? {}
        : { provides: row.provides.map(({ kind, name }) => ({ kind, name })) }),
      copies: copiesOf(row.kind, row.name),
    };
  });
  const offered = new Set(listed.map((row) => row.ref));
  const installed = new Map<string, InventoryPackage>();
  for (const copy of copies) {
    const kind = copy.manifest?.kind ?? copy.record?.kind;
    if (
      kind === undefined ||
      offered.has(identityKey(kind, copy.id)) ||
      installed.has(identityKey(kind, copy.id))
    )
      continue;
    const row = copyRow(copy, limits, show);
    installed.set(row.ref, {
      ref: row.ref,
      kind,
      name: copy.id,
      description: clip(copy.manifest?.description ?? "", limits.description),
      ...(row.version === undefined ? {} : { version: row.version }),
      requires: copy.manifest?.requires ?? copy.record?.requires ?? [],
      origin: row.origin,
      format: row.format,
      listedBy: "installed",
      copies: copiesOf(kind, copy.id),
    });
  }
  return [...listed, ...installed.values()].sort((a, b) =>
    a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0,
  );
}

interface CompiledFilter {
  /** The filter names a resource key. */
  readonly byKey: boolean;
  /** `owners`: the copies (`scope:id`, to their kind) owning the resources a key names. */
  package(row: InventoryPackage, owners: ReadonlyMap<string, PackageKind | undefined>): boolean;
  copy(row: InventoryCopy, owners: ReadonlyMap<string, PackageKind | undefined>): boolean;
  resource(row: InventoryResource): boolean;
}

function compileFilter(filter: InventoryFilter | undefined): CompiledFilter {
  const kinds = filter?.kinds === undefined ? undefined : new Set<string>(filter.kinds);
  const query = filter?.query === undefined ? undefined : parseLexicalQuery(filter.query);
  const matches = (text: string) =>
    query === undefined || !isSearchable(query) || matchLexical(query, text);
  const ref = filter?.ref;
  const key = ref === undefined ? undefined : parseResourceKey(ref);
  const packageRef = ref === undefined || key !== undefined ? undefined : parseRequirementRef(ref);
  const sources = filter?.sources === undefined ? undefined : new Set<string>(filter.sources);
  return {
    byKey: key !== undefined,
    package(row, owners) {
      if (
        kinds !== undefined &&
        !kinds.has(row.kind) &&
        !(row.provides ?? []).some((p) => kinds.has(p.kind))
      )
        return false;
      if (
        !matches(
          `${row.name} ${row.description} ${(row.provides ?? []).map((p) => p.name).join(" ")}`,
        )
      )
        return false;
      if (key !== undefined)
        return row.copies.some((copy) => {
          const owner = copyKey({ scope: copy.scope, id: row.name });
          return owners.has(owner) && owners.get(owner) === row.kind;
        });
      if (packageRef !== undefined)
        return row.ref === identityKey(packageRef.kind, packageRef.name);
      return (
        ref === undefined || row.name === ref || (row.provides ?? []).some((p) => p.name === ref)
      );
    },
    copy(row, owners) {
      if (kinds !== undefined && (row.kind === undefined || !kinds.has(row.kind))) return false;
      if (!matches(row.id)) return false;
      if (key !== undefined) return owners.has(copyKey(row));
      if (packageRef !== undefined)
        return row.id === packageRef.name && row.kind === packageRef.kind;
      return ref === undefined || row.id === ref;
    },
    resource(row) {
      const ownerKind = row.owner?.kind;
      if (
        kinds !== undefined &&
        !kinds.has(row.kind) &&
        !(ownerKind !== undefined && kinds.has(ownerKind))
      )
        return false;
      if (sources !== undefined && !sources.has(row.source.class)) return false;
      if (!matches(`${row.name} ${row.description}`)) return false;
      if (key !== undefined)
        return key.relativePath === undefined
          ? row.kind === key.kind && row.name === key.name && row.source.id === key.sourceId
          : row.key === ref;
      if (packageRef !== undefined) return row.owner?.id === packageRef.name;
      return ref === undefined || row.name === ref;
    },
  };
}

function byResourceOrder(a: InventoryResource, b: InventoryResource): number {
  const kinds = RESOURCE_KINDS.indexOf(a.kind) - RESOURCE_KINDS.indexOf(b.kind);
  if (kinds !== 0) return kinds;
  for (const [x, y] of [
    [a.name, b.name],
    [a.source.id, b.source.id],
    [a.key, b.key],
  ] as const)
    if (x !== y) return x < y ? -1 : 1;
  return 0;
}

/** Paths as the audience may see them: for a model, nothing outside the project and home. */
function pathShower(environment: Environment, audience: Audience): (path: string) => string {
  if (audience === "operator") return (path) => path;
  return (path) =>
    isInside(environment.project, path) || isInside(environment.home, path) ? path : "";
}

function showOrigin(origin: Origin, show: (path: string) => string): Origin {
  const hidden = (path: string) => show(path) || basename(path);
  switch (origin.kind) {
    case "index":
      return { ...origin, index: hidden(origin.index) };
    case "loose":
      return { ...origin, root: hidden(origin.root) };
    default:
      // an import's folder, a folder a copy was installed from
      return origin.path === undefined ? origin : { ...origin, path: hidden(origin.path) };
  }
}

function clipDiagnostic(diagnostic: Diagnostic, limits: InventoryLimits): Diagnostic {
  return { ...diagnostic, message: clip(diagnostic.message, limits.message) };
}
